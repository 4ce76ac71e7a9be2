import SubscriptionDomain
/// The canonical JSON line codec (CONTRACT.md §1): a hand-written decoder fast enough for replay,
/// and an encoder that writes fields in a fixed order with unknown `data` fields kept verbatim.
public enum EventCodec {
    /// Store-added metadata that export prints after the event's own fields.
    public struct Metadata: Sendable, Equatable {
        public var position: UInt64
        public var version: UInt64
        public var recorded: Timestamp
        public init(position: UInt64, version: UInt64, recorded: Timestamp) {
            self.position = position
            self.version = version
            self.recorded = recorded
        }
    }

    /// Decodes one line. `position`, `version` and `recorded` (as export prints them) are accepted and ignored.
    /// The `data` fields are read into slots (the type may come after them), then the type takes its own.
    /// To decode many lines, `LineDecoder` reuses its slots.
    public static func decode(_ line: UnsafeRawBufferPointer) throws(EventDecodingError) -> Event {
        var decoder = LineDecoder()
        return try decoder.decode(line)
    }

    /// Decodes one line into `event`, field by field in place, through the `data` slots `fields`,
    /// which must be empty and which a decoded line leaves empty (its type took its fields, the
    /// rest went to `event.extra`); after a throw they may hold some of the line's fields.
    static func decode(_ line: UnsafeRawBufferPointer, into event: inout Event, slots fields: inout EventFields) throws(EventDecodingError) {
        var s = JSONScanner(line)
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF {
            throw EventDecodingError("the line starts with a UTF-8 byte order mark (EF BB BF): save the file as UTF-8 without a BOM", column: 1)
        }
        try s.expect(0x7B, "'{' (an event is a JSON object)")
        var seen: UInt16 = 0
        // The type and its place in `EventType.cases` (set, or the line is refused below).
        var typeIndex = 0
        var type = EventType.cases[typeIndex]
        var present: UInt32 = 0
        if s.peek() == 0x7D { s.i += 1 } else {
            while true {
                let key: TopField
                switch try fieldName(&s, TopField.tags) {
                case .known(let index): key = TopField(rawValue: UInt16(index))!
                case .unknown(let keyToken): throw EventDecodingError("unknown top-level field '\(try s.text(keyToken))' (extra fields belong in data)")
                }
                let bit: UInt16 = 1 << key.rawValue
                guard seen & bit == 0 else { throw EventDecodingError("duplicate field '\(key.name)'") }
                seen |= bit
                let label = FieldLabel.top(key)
                switch key {
                case .id: event.id = try nonEmptyString(&s, label)
                case .user: event.user = try nonEmptyString(&s, label)
                case .type:
                    typeIndex = try tagIndex(&s, label, EventType.self) { "unknown event type '\($0)'" }
                    type = EventType.cases[typeIndex]
                case .time: event.time = try timestamp(&s, label)
                case .source: event.source = try tag(&s, label, EventSource.self) { "field 'source': '\($0)' is not store, client or server" }
                case .data: present = try decodeData(&s, into: &fields)
                case .position, .version:
                    guard s.peek() != 0x22, try s.number() != nil else { throw EventDecodingError("field '\(key.name)': expected an integer") }
                case .recorded: _ = try timestamp(&s, label)
                }
                if s.peek() == 0x2C { s.i += 1; continue }
                try s.expect(0x7D, "',' or '}'")
                break
            }
        }
        s.skipWhitespace()
        guard s.i == line.count else { throw s.error("unexpected text after the event object") }
        if seen & TopField.requiredMask != TopField.requiredMask {
            for required in [TopField.id, .type, .user, .time] where seen & (1 << required.rawValue) == 0 {
                throw EventDecodingError("missing required field '\(required.name)'")
            }
        }
        guard event.take(type, from: &fields, present: present, offType: present & ~EventType.fieldMasks[typeIndex]) else {
            let field = type.fields.firstMissing(present)
            throw EventDecodingError("type '\(type.rawValue)' requires data.\(field?.rawValue ?? "?")")
        }
    }

    /// Decodes one line given as a string.
    public static func decode(_ line: String) throws(EventDecodingError) -> Event {
        var line = line
        let result = line.withUTF8 { b in Result { () throws(EventDecodingError) -> Event in try decode(UnsafeRawBufferPointer(b)) } }
        return try result.get()
    }

    /// Decodes one line given as bytes.
    public static func decode(_ line: [UInt8]) throws(EventDecodingError) -> Event {
        let result = line.withUnsafeBytes { b in Result { () throws(EventDecodingError) -> Event in try decode(b) } }
        return try result.get()
    }

    /// A field's name for error messages (`time`, `data.expires`), built only when one is thrown.
    enum FieldLabel: CustomStringConvertible {
        case top(TopField)
        case data(EventField)
        var description: String {
            switch self {
            case .top(let f): f.name
            case .data(let f): "data." + f.rawValue
            }
        }
    }

    /// The top-level fields; a field's name is its case's, and its bit its raw value.
    enum TopField: UInt16, CaseIterable {
        case id, type, user, time, data, source, position, version, recorded
        var name: String { "\(self)" }
        static let requiredMask: UInt16 = 1 << id.rawValue | 1 << type.rawValue | 1 << user.rawValue | 1 << time.rawValue
        /// The names in the order of the raw values (what `fieldName` gives back as an index).
        static let tags = TagTable(allCases.map(\.name))
    }

    /// A field name and its colon: the index of a tag of `table`, or the token of another name.
    enum FieldName {
        case known(Int)
        case unknown(JSONScanner.Token)
    }

    /// Reads a field name and the colon after it. A plain tag is matched in place; anything else
    /// (escapes, unknown names) is scanned as a string and looked up.
    @inline(__always) private static func fieldName(_ s: inout JSONScanner, _ table: TagTable) throws(EventDecodingError) -> FieldName {
        if let index = s.tag(in: table) {
            try s.expect(0x3A, "':' after a field name")
            return .known(index)
        }
        let token = try s.string()
        try s.expect(0x3A, "':' after a field name")
        return s.withBytes(token, { table.index(of: $0) }).map { .known($0) } ?? .unknown(token)
    }

    private static func stringToken(_ s: inout JSONScanner, _ field: FieldLabel) throws(EventDecodingError) -> JSONScanner.Token {
        guard s.peek() == 0x22 else { throw EventDecodingError("field '\(field)': expected a string", column: s.i + 1) }
        return try s.string()
    }

    private static func nonEmptyString(_ s: inout JSONScanner, _ field: FieldLabel) throws(EventDecodingError) -> String {
        let v = try s.text(try stringToken(&s, field))
        guard !v.isEmpty else { throw EventDecodingError("field '\(field)' is empty") }
        return v
    }

    /// A string field whose value is one of an enum's frozen tags: matched in place, or scanned
    /// (escapes) and looked up; any other value is refused with `unknown(value)`.
    private static func tag<T: FrozenTag>(_ s: inout JSONScanner, _ field: FieldLabel, _: T.Type,
                                          unknown: (String) -> String) throws(EventDecodingError) -> T {
        if let i = s.tag(in: T.tags) { return T.cases[i] }
        let t = try stringToken(&s, field)
        guard let i = s.withBytes(t, { T.tags.index(of: $0) }) else { throw EventDecodingError(unknown(try s.text(t))) }
        return T.cases[i]
    }

    /// The same, giving the value's index in `T.cases`.
    private static func tagIndex<T: FrozenTag>(_ s: inout JSONScanner, _ field: FieldLabel, _: T.Type,
                                               unknown: (String) -> String) throws(EventDecodingError) -> Int {
        if let i = s.tag(in: T.tags) { return i }
        let t = try stringToken(&s, field)
        guard let i = s.withBytes(t, { T.tags.index(of: $0) }) else { throw EventDecodingError(unknown(try s.text(t))) }
        return i
    }

    /// The same for a `data` field, refused as "field 'data.x': 'v' is not `allowed`".
    private static func tag<T: FrozenTag>(_ s: inout JSONScanner, _ field: FieldLabel, _ type: T.Type, _ allowed: StaticString) throws(EventDecodingError) -> T {
        try tag(&s, field, type) { "field '\(field)': '\($0)' is not \(allowed)" }
    }

    private static func timestamp(_ s: inout JSONScanner, _ field: FieldLabel) throws(EventDecodingError) -> Timestamp {
        let t = try stringToken(&s, field)
        guard let v = s.withBytes(t, { Timestamp.parse($0) }) else {
            if s.withBytes(t, { Timestamp.isRFC3339($0) }) {
                throw EventDecodingError("field '\(field)': \(try s.text(t)) is out of range (\(ValueRanges.timesText))")
            }
            throw EventDecodingError("field '\(field)': '\(try s.text(t))' is not an RFC 3339 time such as 2026-01-06T10:00:00Z")
        }
        return v
    }

    /// Reads the `data` object into `d`; returns the bits of the catalog fields present (not null).
    private static func decodeData(_ s: inout JSONScanner, into d: inout EventFields) throws(EventDecodingError) -> UInt32 {
        guard s.peek() == 0x7B else { throw EventDecodingError("field 'data': expected an object", column: s.i + 1) }
        s.i += 1
        if s.peek() == 0x7D { s.i += 1; return 0 }
        var seen: UInt32 = 0
        var present: UInt32 = 0
        var extraNames: Set<String> = []
        while true {
            let fieldIndex: Int
            switch try fieldName(&s, EventField.tags) {
            case .known(let index): fieldIndex = index
            case .unknown(let keyToken):
                let name = try s.text(keyToken)
                guard extraNames.insert(name).inserted else { throw EventDecodingError("duplicate field 'data.\(name)'") }
                let range: Range<Int>
                do { range = try s.skipValue(depth: 1) } catch { throw EventDecodingError("field 'data.\(name)': \(error.reason)", column: error.column) }
                d.extra.append(.init(name: name, rawJSON: String(decoding: UnsafeRawBufferPointer(rebasing: s.bytes[range]), as: UTF8.self)))
                if s.peek() == 0x2C { s.i += 1; continue }
                try s.expect(0x7D, "',' or '}'")
                return present
            }
            let field = EventField.cases[fieldIndex]
            let bit = UInt32(1) << UInt32(fieldIndex)
            guard seen & bit == 0 else { throw EventDecodingError("duplicate field 'data.\(field.rawValue)'") }
            seen |= bit
            if s.peek() == 0x6E {
                try s.literal("null")
            } else {
                switch field.kind {
                case .identifier, .name: d.set(field, string: try nonEmptyString(&s, .data(field)))
                case .text: d.set(field, string: try s.text(try stringToken(&s, .data(field))))
                case .time: d.set(field, time: try timestamp(&s, .data(field)))
                case .code, .currency, .money, .quantity, .bool, .offer, .environment, .timing: d[field] = try decodeValue(field, &s)
                }
                present |= bit
            }
            if s.peek() == 0x2C { s.i += 1; continue }
            try s.expect(0x7D, "',' or '}'")
            return present
        }
    }

    /// Reads one field's value as its kind says.
    private static func decodeValue(_ field: EventField, _ s: inout JSONScanner) throws(EventDecodingError) -> FieldValue {
        let name = FieldLabel.data(field)
        switch field.kind {
        case .identifier, .name: return .string(try nonEmptyString(&s, name))
        case .text: return .string(try s.text(try stringToken(&s, name)))
        case .code:
            if s.peek() == 0x22 { return .string(try s.text(try s.string())) }
            let r = try s.skipValue(depth: 1)
            guard let _ = Int(String(decoding: UnsafeRawBufferPointer(rebasing: s.bytes[r]), as: UTF8.self)) else {
                throw EventDecodingError("field '\(name)': expected a string or an integer")
            }
            return .string(String(decoding: UnsafeRawBufferPointer(rebasing: s.bytes[r]), as: UTF8.self))
        case .time: return .time(try timestamp(&s, name))
        case .currency:
            let c = try s.text(try stringToken(&s, name))
            var letters = 0
            for b in c.utf8 where b >= 65 && b <= 90 { letters += 1 }
            guard c.utf8.count == 3, letters == 3 else {
                throw EventDecodingError("field '\(name)': '\(c)' is not an ISO 4217 code such as USD")
            }
            return .string(c)
        case .money:
            guard s.peek() == 0x22 else { throw EventDecodingError("field '\(name)': expected a decimal string such as \"9.99\" (money is never a JSON number)", column: s.i + 1) }
            let t = try s.string()
            guard let m = s.withBytes(t, { Money.parse($0) }) else {
                let text = try s.text(t)
                if Money.isDecimal(text) {
                    throw EventDecodingError("field '\(name)': \(text) is out of range (\(ValueRanges.pricesText))")
                }
                throw EventDecodingError("field '\(name)': '\(text)' is not a decimal amount such as 9.99")
            }
            return .money(m)
        case .quantity:
            let at = s.i
            guard s.peek() != 0x22, let q = try s.number(), q >= 1 else {
                throw EventDecodingError("field '\(name)': expected a positive integer", column: at + 1)
            }
            // Up to 10^9 reads (an older version accepted that much); the import door takes ValueRanges.quantities.
            guard q <= 1_000_000_000 else {
                throw EventDecodingError("field '\(name)': \(q) is out of range (accepted: \(ValueRanges.quantities.lowerBound) to \(ValueRanges.quantities.upperBound))")
            }
            return .int(q)
        case .bool:
            switch s.peek() {
            case 0x74: try s.literal("true"); return .bool(true)
            case 0x66: try s.literal("false"); return .bool(false)
            default: throw EventDecodingError("field '\(name)': expected true or false", column: s.i + 1)
            }
        case .offer: return .offer(try tag(&s, name, Offer.self, "free_trial, intro or none"))
        case .environment: return .environment(try tag(&s, name, StoreEnvironment.self, "production or sandbox"))
        case .timing: return .timing(try tag(&s, name, ChangeTiming.self, "immediate or next_renewal"))
        }
    }
}
