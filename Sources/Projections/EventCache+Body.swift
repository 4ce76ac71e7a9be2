import SubscriptionDomain

// The binary form of one event in the cache. Writer and reader sit side by side and take the
// fields in the same order. A change to the writer changes EventCache.layoutDigest, so caches
// written before it are rebuilt; enums are stored by their frozen codes (EventCache+Codes.swift).
//
// Body: id, type, time, recorded, source, then a bit mask of the `data` fields present and those
// fields in the order of their bits. Ids, transactions and transfer recipients are written out (they
// are nearly all different); the other strings are shared strings, named by number. A field added
// to the catalog takes a new bit at the end, after `extra`, so the bits already given keep theirs.

extension EventCache {
    /// The bits of the `data` mask, in the order the fields are written.
    enum DataBit: Int, CaseIterable {
        case product, transaction, originalTransaction, expires, offer, price, currency, environment, reason,
             graceExpires, effective, to, quantity, context, sourceScreen, planState, trialEligible, trialUsed,
             plan, errorCode, category, extra, resumesAt, familyShared
    }
}

extension EventCache.Writer {
    mutating func writeBody(_ e: Event, recorded: Int64) {
        typealias C = EventCache
        body.string(e.id)
        body.byte(e.type.cacheCode)
        body.time(e.time)
        body.int64(recorded)
        body.byte(e.source.map { $0.cacheCode + 1 } ?? 0)
        let d = e.data
        var mask: UInt64 = 0
        func mark(_ present: Bool, _ bit: C.DataBit) { if present { mask |= 1 << UInt64(bit.rawValue) } }
        mark(d.product != nil, .product); mark(d.transaction != nil, .transaction)
        mark(d.originalTransaction != nil, .originalTransaction); mark(d.expires != nil, .expires)
        mark(d.offer != nil, .offer); mark(d.price != nil, .price); mark(d.currency != nil, .currency)
        mark(d.environment != nil, .environment); mark(d.reason != nil, .reason)
        mark(d.graceExpires != nil, .graceExpires); mark(d.effective != nil, .effective); mark(d.to != nil, .to)
        mark(d.quantity != nil, .quantity); mark(d.context != nil, .context); mark(d.sourceScreen != nil, .sourceScreen)
        mark(d.planState != nil, .planState); mark(d.trialEligible != nil, .trialEligible)
        mark(d.trialUsed != nil, .trialUsed); mark(d.plan != nil, .plan); mark(d.errorCode != nil, .errorCode)
        mark(d.category != nil, .category); mark(!d.extra.isEmpty, .extra); mark(d.resumesAt != nil, .resumesAt)
        mark(d.familyShared != nil, .familyShared)
        body.varint(mask)
        if let v = d.product { shared(v) }
        if let v = d.transaction { body.string(v) }
        if let v = d.originalTransaction { body.string(v) }
        if let v = d.expires { body.time(v) }
        if let v = d.offer { body.byte(v.cacheCode) }
        if let v = d.price { body.money(v) }
        if let v = d.currency { shared(v) }
        if let v = d.environment { body.byte(v.cacheCode) }
        if let v = d.reason { shared(v) }
        if let v = d.graceExpires { body.time(v) }
        if let v = d.effective { body.byte(v.cacheCode) }
        if let v = d.to { body.string(v) }
        if let v = d.quantity { body.int(v) }
        if let v = d.context { shared(v) }
        if let v = d.sourceScreen { shared(v) }
        if let v = d.planState { shared(v) }
        if let v = d.trialEligible { body.bool(v) }
        if let v = d.trialUsed { body.bool(v) }
        if let v = d.plan { shared(v) }
        if let v = d.errorCode { shared(v) }
        if let v = d.category { shared(v) }
        if !d.extra.isEmpty { body.array(d.extra) { w, x in w.string(x.name); w.string(x.rawJSON) } }
        if let v = d.resumesAt { body.time(v) }
        if let v = d.familyShared { body.bool(v) }
    }

    private mutating func shared(_ s: String) {
        let n = number(s)
        body.count(n)
    }
}

extension EventCache.Reader {
    /// Reads the body into `e`, setting every field but the user (so one event can be reused for
    /// all, as the JSON decoder does); returns when the log recorded it (milliseconds).
    mutating func readBody(into e: inout Event) throws -> Int64 {
        typealias C = EventCache
        e.id = try r.string()
        e.type = try code(C.types)
        e.time = try r.time()
        let recorded = try r.int64()
        guard recorded.magnitude <= Int64.max / 1_000_000 else { throw r.unreadable("recorded at \(recorded) ms") }
        let source = try r.byte()
        e.source = source == 0 ? nil : try element(C.sources, Int(source) - 1)
        let mask = try r.varint()
        guard mask >> UInt64(C.DataBit.allCases.count) == 0 else { throw r.unreadable("data mask \(mask)") }
        func has(_ bit: C.DataBit) -> Bool { mask & (1 << UInt64(bit.rawValue)) != 0 }
        e.data.product = has(.product) ? try sharedString() : nil
        e.data.transaction = has(.transaction) ? try r.string() : nil
        e.data.originalTransaction = has(.originalTransaction) ? try r.string() : nil
        e.data.expires = has(.expires) ? try r.time() : nil
        e.data.offer = has(.offer) ? try code(C.offers) : nil
        e.data.price = has(.price) ? try r.money() : nil
        e.data.currency = has(.currency) ? try sharedString() : nil
        e.data.environment = has(.environment) ? try code(C.environments) : nil
        e.data.reason = has(.reason) ? try sharedString() : nil
        e.data.graceExpires = has(.graceExpires) ? try r.time() : nil
        e.data.effective = has(.effective) ? try code(C.timings) : nil
        e.data.to = has(.to) ? try r.string() : nil
        e.data.quantity = has(.quantity) ? try r.int() : nil
        e.data.context = has(.context) ? try sharedString() : nil
        e.data.sourceScreen = has(.sourceScreen) ? try sharedString() : nil
        e.data.planState = has(.planState) ? try sharedString() : nil
        e.data.trialEligible = has(.trialEligible) ? try r.bool() : nil
        e.data.trialUsed = has(.trialUsed) ? try r.bool() : nil
        e.data.plan = has(.plan) ? try sharedString() : nil
        e.data.errorCode = has(.errorCode) ? try sharedString() : nil
        e.data.category = has(.category) ? try sharedString() : nil
        if has(.extra) {
            e.data.extra = try r.array { r in .init(name: try r.string(), rawJSON: try r.string()) }
        } else if !e.data.extra.isEmpty {
            e.data.extra = []
        }
        e.data.resumesAt = has(.resumesAt) ? try r.time() : nil
        e.data.familyShared = has(.familyShared) ? try r.bool() : nil
        return recorded
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
