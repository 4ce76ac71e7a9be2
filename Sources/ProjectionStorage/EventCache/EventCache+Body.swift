import Projections
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
        for f in EventCache.fieldsInCodeOrder where fields.contains(f) { mask |= 1 << UInt64(f.cacheCode) }
        body.varint(mask)
        // The present fields only, in the order of their codes (a value is built for those alone).
        var rest = mask & ~EventCache.unknownFieldsBit
        while rest != 0 {
            let bit = rest.trailingZeroBitCount
            rest &= rest - 1
            guard let f = EventCache.fieldsByCode[bit], let value = fields[f] else { continue }
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

extension EventCache {
    /// The tables a reader looks codes up in, by code.
    struct CodeTables {
        let types = EventCache.types
        let sources = EventCache.sources
        let offers = EventCache.offers
        let environments = EventCache.environments
        let timings = EventCache.timings
        let fields = EventCache.fieldsByCode
        let fieldBits = EventCache.fieldBits
        /// Each type's fields (`FieldTable.mask`), by the type's code.
        let typeFields: [UInt32] = EventCache.types.map { $0?.fields.mask ?? 0 }
    }
}

extension EventCache.Reader {
    /// Reads the body into `e`, setting every field but the user, and but the id unless `readsIDs`
    /// (so one event can be reused for all of a user's); returns when the log recorded it (milliseconds).
    mutating func readBody(into e: inout Event) throws -> Int64 {
        let c = codes
        // `fields` is empty between events: taking an event's data empties it. (After a throw the
        // reader is dropped, as the file is damaged.)
        if readsIDs { e.id = try r.string() } else { try r.skip(try r.count()) }
        let typeCode = Int(try r.byte())
        guard typeCode < c.types.count, let type = c.types[typeCode] else { throw r.unreadable("code \(typeCode) names no event type") }
        e.time = try r.time()
        let recorded = try r.int64()
        guard recorded.magnitude <= Int64.max / 1_000_000 else { throw r.unreadable("recorded at \(recorded) ms") }
        let sourceByte = try r.byte()
        e.source = sourceByte == 0 ? nil : try Self.element(c.sources, Int(sourceByte) - 1, r)
        let mask = try r.varint()
        var present: UInt32 = 0
        var rest = mask & ~EventCache.unknownFieldsBit
        while rest != 0 {
            let bit = rest.trailingZeroBitCount
            rest &= rest - 1
            guard bit < c.fields.count, let field = c.fields[bit] else { throw r.unreadable("data mask \(mask)") }
            present |= c.fieldBits[bit]
            switch field.kind {
            case .identifier: fields.set(field, string: try r.string())
            case .name, .text, .code, .currency: fields.set(field, string: try sharedString())
            case .time: fields.set(field, time: try r.time())
            case .money: fields[field] = .money(try r.money())
            case .quantity: fields[field] = .int(try r.int())
            case .bool: fields[field] = .bool(try r.bool())
            case .offer: fields[field] = .offer(try code(c.offers))
            case .environment: fields[field] = .environment(try code(c.environments))
            case .timing: fields[field] = .timing(try code(c.timings))
            }
        }
        if mask & EventCache.unknownFieldsBit != 0 {
            fields.extra = try r.array { r in .init(name: try r.string(), rawJSON: try r.string()) }
        }
        guard e.take(type, from: &fields, present: present, offType: present & ~c.typeFields[typeCode]) else {
            throw r.unreadable("a \(type.rawValue) event without its required fields")
        }
        return recorded
    }

    private mutating func code<T>(_ values: [T?]) throws -> T {
        return try Self.element(values, Int(try r.byte()), r)
    }

    /// `values[i]`, read by `r` (a static function: a method of the reader, called while it
    /// reads, was handed a copy of the whole reader, per event).
    private static func element<T>(_ values: [T?], _ i: Int, _ r: ProjectionReader) throws -> T {
        guard i < values.count, let value = values[i] else { throw r.unreadable("code \(i) names no value") }
        return value
    }
}
