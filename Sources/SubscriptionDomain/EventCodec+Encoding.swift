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
        out.append(contentsOf: #"{"id":"#.utf8)
        appendString(e.id, to: &out)
        out.append(contentsOf: #","type":""#.utf8)
        out.append(contentsOf: e.type.rawValue.utf8)
        out.append(contentsOf: #"","user":"#.utf8)
        appendString(e.user, to: &out)
        out.append(contentsOf: #","time":""#.utf8)
        e.time.appendRFC3339(to: &out)
        out.append(contentsOf: #"","data":{"#.utf8)
        var first = true
        func key(_ name: String) {
            if !first { out.append(0x2C) }
            first = false
            appendString(name, to: &out)
            out.append(0x3A)
        }
        let d = e.data
        func str(_ f: EventField, _ v: String?) { if let v { key(f.rawValue); appendString(v, to: &out) } }
        str(.product, d.product)
        str(.transaction, d.transaction)
        str(.originalTransaction, d.originalTransaction)
        if let t = d.expires { key(EventField.expires.rawValue); out.append(0x22); t.appendRFC3339(to: &out); out.append(0x22) }
        str(.offer, d.offer?.rawValue)
        str(.price, d.price?.description)
        str(.currency, d.currency)
        str(.environment, d.environment?.rawValue)
        if let v = d.familyShared { key(EventField.familyShared.rawValue); out.append(contentsOf: (v ? "true" : "false").utf8) }
        str(.reason, d.reason)
        if let t = d.graceExpires { key(EventField.graceExpires.rawValue); out.append(0x22); t.appendRFC3339(to: &out); out.append(0x22) }
        if let t = d.resumesAt { key(EventField.resumesAt.rawValue); out.append(0x22); t.appendRFC3339(to: &out); out.append(0x22) }
        str(.effective, d.effective?.rawValue)
        str(.to, d.to)
        if let q = d.quantity { key(EventField.quantity.rawValue); out.append(contentsOf: String(q).utf8) }
        str(.context, d.context)
        str(.sourceScreen, d.sourceScreen)
        str(.planState, d.planState)
        if let v = d.trialEligible { key(EventField.trialEligible.rawValue); out.append(contentsOf: (v ? "true" : "false").utf8) }
        if let v = d.trialUsed { key(EventField.trialUsed.rawValue); out.append(contentsOf: (v ? "true" : "false").utf8) }
        str(.plan, d.plan)
        str(.errorCode, d.errorCode)
        str(.category, d.category)
        for x in d.extra { key(x.name); out.append(contentsOf: x.rawJSON.utf8) }
        out.append(0x7D)
        if let source = e.source {
            out.append(contentsOf: #","source":""#.utf8)
            out.append(contentsOf: source.rawValue.utf8)
            out.append(0x22)
        }
        if let m = metadata {
            out.append(contentsOf: #","position":"#.utf8)
            out.append(contentsOf: String(m.position).utf8)
            out.append(contentsOf: #","version":"#.utf8)
            out.append(contentsOf: String(m.version).utf8)
            out.append(contentsOf: #","recorded":""#.utf8)
            m.recorded.appendRFC3339(to: &out)
            out.append(0x22)
        }
        out.append(0x7D)
    }

    /// Appends `s` as a JSON string literal.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
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
