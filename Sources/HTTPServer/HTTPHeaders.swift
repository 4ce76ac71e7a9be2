/// Header fields in the order they came, with names compared case-insensitively (ASCII).
public struct HTTPHeaders: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The fields as (name as sent, value with surrounding whitespace removed).
    public private(set) var fields: [(name: String, value: String)]

    /// Headers from a list of (name, value) pairs, kept in order.
    public init(_ fields: [(name: String, value: String)] = []) { self.fields = fields }

    /// Headers from a literal such as `["Content-Type": "application/json"]`.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { (name: $0.0, value: $0.1) }
    }

    /// The first value of the field named `name` (any case), or nil.
    public subscript(name: String) -> String? {
        for field in fields where Self.sameName(field.name, name) { return field.value }
        return nil
    }

    /// Every value of the field named `name` (any case), in order.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// How many fields there are.
    public var count: Int { fields.count }

    /// Appends a field (duplicates are kept).
    public mutating func add(name: String, value: String) { fields.append((name: name, value: value)) }

    /// Replaces every field named `name` by one with `value`.
    public mutating func set(name: String, value: String) {
        remove(name: name)
        fields.append((name: name, value: value))
    }

    /// Removes every field named `name`.
    public mutating func remove(name: String) { fields.removeAll { Self.sameName($0.name, name) } }

    /// Iterates the fields in order.
    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    /// Same fields, same order, names equal ignoring ASCII case, values equal exactly.
    public static func == (a: HTTPHeaders, b: HTTPHeaders) -> Bool {
        a.fields.count == b.fields.count
            && zip(a.fields, b.fields).allSatisfy { sameName($0.name, $1.name) && $0.value == $1.value }
    }

    /// ASCII case-insensitive comparison of two names.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let x = a.utf8, y = b.utf8
        guard x.count == y.count else { return false }
        return zip(x, y).allSatisfy { ByteClass.lower($0) == ByteClass.lower($1) }
    }

    /// True when a comma-separated field named `name` lists `token` (any case), e.g. `Connection: close`.
    func listContains(_ name: String, token: String) -> Bool {
        values(for: name).contains { value in
            value.split(separator: ",").contains { Self.sameName(HTTPRequestParser.trimmedLowercase($0), token) }
        }
    }
}
