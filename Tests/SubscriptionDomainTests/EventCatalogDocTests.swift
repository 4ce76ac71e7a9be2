import Foundation
import Testing
import SubscriptionDomain

/// docs/events.md lists the catalog a user writes events against; its tables are the ones the
/// code enforces (`EventType.fields`, `EventField.kind`), so a type or field added, or a field
/// made required, shows here until the document says so too.
@Suite struct EventCatalogDoc {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/events.md").path

    /// The text between `<!-- name -->` and `<!-- /name -->` in the document.
    static func section(_ name: String, of text: String) -> String? {
        guard let start = text.range(of: "<!-- \(name) -->\n"), let end = text.range(of: "<!-- /\(name) -->", range: start.upperBound..<text.endIndex)
        else { return nil }
        return String(text[start.upperBound..<end.lowerBound])
    }

    static func kindName(_ kind: EventField.Kind) -> String {
        switch kind {
        case .identifier: "identifier"
        case .name: "name"
        case .text: "text"
        case .code: "code"
        case .currency: "currency"
        case .time: "time"
        case .money: "money"
        case .quantity: "quantity"
        case .bool: "bool"
        case .offer: "offer"
        case .environment: "environment"
        case .timing: "timing"
        }
    }

    /// One row per event type: its required and optional `data` fields, in the encoder's order.
    static var typesTable: String {
        var out = "| type | required `data` fields | optional `data` fields |\n| --- | --- | --- |\n"
        for type in EventType.allCases {
            func list(_ fields: [EventField]) -> String { fields.isEmpty ? "–" : fields.map { "`\($0.rawValue)`" }.joined(separator: ", ") }
            out += "| `\(type.rawValue)` | \(list(type.fields.required)) | \(list(type.fields.optional)) |\n"
        }
        return out
    }

    /// One row per field: its kind.
    static var fieldsTable: String {
        var out = "| field | kind |\n| --- | --- |\n"
        for field in EventField.allCases { out += "| `\(field.rawValue)` | \(kindName(field.kind)) |\n" }
        return out
    }

    @Test func theCatalogsTablesInTheDocsAreTheOnesTheCodeEnforces() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        #expect(Self.section("types", of: text) == Self.typesTable, "docs/events.md, types: expected\n\(Self.typesTable)")
        #expect(Self.section("fields", of: text) == Self.fieldsTable, "docs/events.md, fields: expected\n\(Self.fieldsTable)")
    }

    @Test func theDocumentNamesEveryValueOfTheEnumeratedKinds() throws {
        let text = try String(contentsOfFile: Self.path, encoding: .utf8)
        for value in Offer.allCases.map(\.rawValue) + StoreEnvironment.allCases.map(\.rawValue) + ChangeTiming.allCases.map(\.rawValue)
            + EventSource.allCases.map(\.rawValue) {
            #expect(text.contains("`\(value)`"), "docs/events.md does not name `\(value)`")
        }
    }
}
