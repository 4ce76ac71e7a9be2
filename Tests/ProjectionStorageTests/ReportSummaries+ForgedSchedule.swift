import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
@_spi(Testing) @testable import ProjectionStorage

/// A summary whole by its CRC whose schedule entry holds what no writer puts there (flags beyond
/// the three it knows, a switch list flagged but empty) is refused at reading and rebuilt.
extension ReportSummaries {
    /// `bytes` with the CRC32C trailer computed again over the rest.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var out = Array(bytes.dropLast(4))
        let crc = out.withUnsafeBytes { CRC32C.checksum($0) }
        withUnsafeBytes(of: crc.littleEndian) { out += $0 }
        return out
    }

    static let forgedAt = at("2026-02-25T00:00:00Z")

    /// A log of one payer with a billing issue (one schedule entry, `payment_failed`), summarised as of `forgedAt`.
    static func summarisedPayer() throws -> (TestLog, ProjectionStore, [UInt8]) {
        try summarised([
            #"{"id":"fg-p","type":"purchase","user":"payer","time":"2026-02-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"fg-t","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"fg-b","type":"billing_issue","user":"payer","time":"2026-02-20T00:00:00Z","data":{}}"#,
        ], at: forgedAt)
    }

    @Test func aScheduleEntryWithUnknownFlagsOrAnEmptySwitchListIsRebuiltNotRead() throws {
        let now = Self.forgedAt
        let (log, store, bytes) = try Self.summarisedPayer()
        // The schedule is the last section: its length (a one-byte count), then the one entry
        // (user, kind, fire time, scheduled time, flags), then the CRC.
        let entry = 1 + 5 + 1 + 8 + 8 + 1
        let flags = bytes.count - 4 - 1, length = bytes.count - 4 - entry - 1
        try #require(bytes[length] == UInt8(entry) && bytes[flags] == 0, "the schedule section as laid out: \(bytes.suffix(entry + 5))")
        // Whole again after resealing: read, not rebuilt.
        Self.writeFile(store.summaryPath, Self.resealed(bytes))
        #expect(try !Self.expectSameAsRebuild(store, log.path, at: now).rebuilt)
        for unknown: UInt8 in [8, 0x80] {
            var forged = bytes
            forged[flags] = unknown
            Self.writeFile(store.summaryPath, Self.resealed(forged))
            #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt, "flags \(unknown)")
        }
        // Flag 4 (channel switches) with a count of none.
        var empty = Array(bytes.dropLast(4))
        empty[length] = UInt8(entry + 1)
        empty[flags] = 4
        empty.append(0)
        Self.writeFile(store.summaryPath, Self.resealed(empty + [0, 0, 0, 0]))
        #expect(try Self.expectSameAsRebuild(store, log.path, at: now).rebuilt, "a switch list flagged and empty")
    }

    /// The same forged entry met by an update that folds new records without the schedule being
    /// asked (`counts`, `funnel`, `revenue`): the update decodes the schedule to replace entries,
    /// and a schedule it cannot read is rebuilt like any other damage, not an error of the report
    /// (the quick read skips the schedule when notifications are not asked).
    @Test func aForgedScheduleMetByAnUpdateWithoutNotificationsIsRebuiltNotAnError() throws {
        let now = Self.forgedAt
        let (log, store, bytes) = try Self.summarisedPayer()
        var forged = bytes
        forged[bytes.count - 4 - 1] = 8   // the one entry's flags (see above)
        Self.writeFile(store.summaryPath, Self.resealed(forged))
        // A new user with a billing issue: the update changes the schedule.
        try Self.append([
            #"{"id":"fg-o","type":"purchase","user":"other","time":"2026-02-21T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"fg-o","expires":"2026-03-21T00:00:00Z","price":"9.99","currency":"USD"}}"#,
            #"{"id":"fg-i","type":"billing_issue","user":"other","time":"2026-02-22T00:00:00Z","data":{}}"#,
        ], to: log)
        let refresh = try store.summary(asOf: now, notifications: false).refresh
        #expect(refresh.rebuilt, "\(refresh)")
        // Asked with the schedule, the reports are a full rebuild's whatever the file held.
        try Self.expectSameAsRebuild(store, log.path, at: now)
    }
}
