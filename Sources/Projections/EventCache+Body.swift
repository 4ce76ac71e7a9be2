import SubscriptionDomain

// The binary form of one event in the cache. Writer and reader sit side by side and take the
// fields in the same order. A change to the writer changes EventCache.layoutDigest, so caches
// written before it are rebuilt; enums and data fields are stored by their frozen codes
// (EventCache+Codes.swift).
//
// Body: id, type, time, recorded, source, then a bit mask of the `data` fields present (bit = the
// field's cache code; bit 31: unknown fields follow) and those fields in the order of their codes,
// each as its kind says (`EventField.Kind`): identifiers (transactions, recipients: nearly all
// different) written out, the other strings as shared strings named by number. The type's fields
// and off-type ones are stored alike; reading gives the type its own (`Event(…taking:present:)`).

extension EventCache {
    /// The mask bit saying that unknown fields (name, raw JSON) follow.
    static let unknownFieldsBit: UInt64 = 1 << 31
    /// The data fields by cache code, and each one's bit in the domain's field masks.
    static let fieldsByCode = byCode { (f: EventField) in f.cacheCode }
    static let fieldBits: [UInt32] = fieldsByCode.map { $0?.bit ?? 0 }
    /// The fields in the order they are written (by code).
    static let fieldsInCodeOrder: [EventField] = fieldsByCode.compactMap { $0 }
}

extension EventCache.Writer {
    mutating func writeBody(_ e: Event, recorded: Int64) {
        body.string(e.id)
        body.byte(e.type.cacheCode)
        body.time(e.time)
        body.int64(recorded)
        body.byte(e.source.map { $0.cacheCode + 1 } ?? 0)
        var fields = EventFields()
        e.data.put(into: &fields)
        for x in e.extra.offType { fields[x.field] = x.value }
        var mask: UInt64 = e.extra.unknown.isEmpty ? 0 : EventCache.unknownFieldsBit
        for f in EventCache.fieldsInCodeOrder where fields[f] != nil { mask |= 1 << UInt64(f.cacheCode) }
        body.varint(mask)
        for f in EventCache.fieldsInCodeOrder {
            guard let value = fields[f] else { continue }
            switch value {
            case .string(let v): if f.kind == .identifier { body.string(v) } else { body.count(number(v)) }
            case .time(let t): body.time(t)
            case .money(let m): body.money(m)
            case .int(let q): body.int(q)
            case .bool(let b): body.bool(b)
            case .offer(let o): body.byte(o.cacheCode)
            case .environment(let v): body.byte(v.cacheCode)
            case .timing(let t): body.byte(t.cacheCode)
            }
        }
        if !e.extra.unknown.isEmpty { body.array(e.extra.unknown) { w, x in w.string(x.name); w.string(x.rawJSON) } }
    }
}

extension EventCache.Reader {
    /// Reads the body of an event of `user`; returns it and when the log recorded it (milliseconds).
    mutating func readBody(user: String) throws -> (Event, Int64) {
        typealias C = EventCache
        let id = try r.string()
        let type = try code(C.types)
        let time = try r.time()
        let recorded = try r.int64()
        guard recorded.magnitude <= Int64.max / 1_000_000 else { throw r.unreadable("recorded at \(recorded) ms") }
        let sourceByte = try r.byte()
        let source = sourceByte == 0 ? nil : try element(C.sources, Int(sourceByte) - 1)
        let mask = try r.varint()
        var fields = EventFields()
        var present: UInt32 = 0
        var rest = mask & ~C.unknownFieldsBit
        while rest != 0 {
            let bit = rest.trailingZeroBitCount
            rest &= rest - 1
            guard bit < C.fieldsByCode.count, let field = C.fieldsByCode[bit] else { throw r.unreadable("data mask \(mask)") }
            present |= C.fieldBits[bit]
            switch field.kind {
            case .identifier: fields.set(field, string: try r.string())
            case .name, .text, .code, .currency: fields.set(field, string: try sharedString())
            case .time: fields.set(field, time: try r.time())
            case .money: fields[field] = .money(try r.money())
            case .quantity: fields[field] = .int(try r.int())
            case .bool: fields[field] = .bool(try r.bool())
            case .offer: fields[field] = .offer(try code(C.offers))
            case .environment: fields[field] = .environment(try code(C.environments))
            case .timing: fields[field] = .timing(try code(C.timings))
            }
        }
        if mask & C.unknownFieldsBit != 0 {
            fields.extra = try r.array { r in .init(name: try r.string(), rawJSON: try r.string()) }
        }
        guard let event = Event(id: id, user: user, time: time, source: source, type: type, taking: &fields, present: present) else {
            throw r.unreadable("a \(type.rawValue) event without its required fields")
        }
        return (event, recorded)
    }

    private mutating func code<T>(_ values: [T?]) throws -> T {
        // The byte is read first: `element(values, try r.byte())` would copy the reader to call
        // `element` on the reader as it was before the read.
        let i = Int(try r.byte())
        return try element(values, i)
    }

    private func element<T>(_ values: [T?], _ i: Int) throws -> T {
        guard i < values.count, let value = values[i] else { throw r.unreadable("code \(i) names no value") }
        return value
    }
}
