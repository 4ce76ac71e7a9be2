import SubscriptionDomain
extension EventCodec {
    /// The canonical JSON line (no trailing newline); with `metadata`, export's extra fields.
    public static func encode(_ e: Event, metadata: Metadata? = nil) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        encode(e, metadata: metadata, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes that every canonical line of an event of `type` holds, and no canonical line of
    /// another type: `,"type":"TAG",` (inside a string a quote is escaped, so it cannot occur there).
    public static func canonicalTypeMarker(_ type: EventType) -> [UInt8] {
        Array(#","type":""#.utf8) + Array(type.rawValue.utf8) + Array(#"","#.utf8)
    }

    /// Appends the canonical JSON line for `e` to `out`.
    public static func encode(_ e: Event, metadata: Metadata? = nil, into out: inout [UInt8]) {
        encode(e, fields: e.allFields, metadata: metadata, into: &out)
    }

    /// The same, given `e.allFields` (a caller that needs them too builds them once).
    public static func encode(_ e: Event, fields: EventFields, metadata: Metadata? = nil, into out: inout [UInt8]) {
        appendUTF8(#"{"id":"#, to: &out)
        appendString(e.id, to: &out)
        appendUTF8(#","type":""#, to: &out)
        appendUTF8(e.type.rawValue, to: &out)
        appendUTF8(#"","user":"#, to: &out)
        appendString(e.user, to: &out)
        appendUTF8(#","time":""#, to: &out)
        e.time.appendRFC3339(to: &out)
        appendUTF8(#"","data":{"#, to: &out)
        // The catalog's fields in its order (the type's and any off-type ones), then the unknown ones.
        var first = true
        for (index, field) in EventField.cases.enumerated() {
            guard let value = fields[field] else { continue }
            if !first { out.append(0x2C) }
            first = false
            out.append(contentsOf: fieldKeys[index])
            value.appendJSON(to: &out)
        }
        for x in e.extra.unknown {
            if !first { out.append(0x2C) }
            first = false
            appendString(x.name, to: &out)
            out.append(0x3A)
            appendUTF8(x.rawJSON, to: &out)
        }
        out.append(0x7D)
        if let source = e.source {
            appendUTF8(#","source":""#, to: &out)
            appendUTF8(source.rawValue, to: &out)
            out.append(0x22)
        }
        if let m = metadata {
            appendUTF8(#","position":"#, to: &out)
            out.append(contentsOf: String(m.position).utf8)
            appendUTF8(#","version":"#, to: &out)
            out.append(contentsOf: String(m.version).utf8)
            appendUTF8(#","recorded":""#, to: &out)
            m.recorded.appendRFC3339(to: &out)
            out.append(0x22)
        }
        out.append(0x7D)
    }

    /// Appends a string's UTF-8 bytes, in one copy when the string is contiguous (literals, most strings).
    @inline(__always) static func appendUTF8(_ s: String, to out: inout [UInt8]) {
        if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out.append(contentsOf: s.utf8) }
    }

    /// `"name":` for each catalog field, in `EventField.cases` order (the names need no escapes).
    static let fieldKeys: [[UInt8]] = EventField.cases.map { Array("\"\($0.rawValue)\":".utf8) }

    /// Appends `s` as a JSON string literal.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        // Most strings need no escape: copied whole.
        let copied = s.utf8.withContiguousStorageIfAvailable { b -> Bool in
            for c in b where c < 0x20 || c == 0x22 || c == 0x5C { return false }
            out.append(0x22)
            out.append(contentsOf: b)
            out.append(0x22)
            return true
        }
        if copied == true { return }
        out.append(0x22)
        for c in s.utf8 {
            switch c {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(0x6E)
            case 0x0D: out.append(0x5C); out.append(0x72)
            case 0x09: out.append(0x5C); out.append(0x74)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: [0x5C, 0x75, 0x30, 0x30, hex[Int(c >> 4)], hex[Int(c & 15)]])
            default: out.append(c)
            }
        }
        out.append(0x22)
    }
}
