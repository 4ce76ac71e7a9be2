import Projections
import EventStore
import SubscriptionDomain
import Platform

// The analysts' model file, in the log's projections folder next to the projection it goes with:
//
//   "LDGANLY\n", format version (varint), projection fingerprint (string), head position (int64),
//   the log's chain hash there (32 bytes), first event (optional int64), the interned names and
//   the users (counted strings), then each column (count, then its rows in their sorted order):
//   movements, trials, charges, refunds, customers, cohort money, activity, plan spans;
//   the CRC32C of everything before in the last 4 bytes.
//
// Read whole or not at all: a file that ends early, fails its CRC, is of another version, or
// holds a value or an order no build makes (a name or user id out of range, rows out of order)
// is `ProjectionReader.Unreadable` (rebuilt, never served).

extension AnalystModel {
    static let magic = Array("LDGANLY\n".utf8)
    /// Bump when the model's content or stored form changes: stored models of other versions are rebuilt.
    static let formatVersion = 1

    /// Writes the model to `path` (a temporary file put in place atomically).
    func write(path: String) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.magic, DerivedFileHeader(version: Self.formatVersion, fingerprint: fingerprint, position: position, hash: hash))
        w.optional(firstEvent) { $0.time($1) }
        w.array(names) { $0.string($1) }
        w.array(users) { $0.string($1) }
        func seg(_ w: inout ProjectionWriter, _ s: Seg) { for i in 0..<Segment.allCases.count { w.int(Int(s[i])) } }
        func column<T>(_ rows: [T], _ body: (inout ProjectionWriter, T) -> Void) throws {
            w.count(rows.count)
            for r in rows {
                body(&w, r)
                if w.bytes.count >= 1 << 20 { try file.flush(&w) }
            }
        }
        try column(movements) { w, m in
            w.int64(m.time); w.byte(m.kind.rawValue); w.int(Int(m.currency)); w.int64(m.mrr); w.int(Int(m.user)); seg(&w, m.seg)
        }
        try column(trials) { w, t in w.int64(t.start); w.int64(t.convertedAt); w.int64(t.abandonedAt); seg(&w, t.seg) }
        try column(charges) { w, c in w.int64(c.time); w.int(Int(c.user)); w.int(Int(c.currency)); w.int64(c.micros); seg(&w, c.seg) }
        try column(refunds) { w, r in
            w.int64(r.time); w.int64(r.chargeTime); w.int(Int(r.currency)); w.int64(r.micros); w.bool(r.sign > 0); seg(&w, r.seg)
        }
        try column(customers) { w, c in w.int64(c.firstSeen); w.int64(c.firstConversion); w.int64(c.firstPaid); w.int(Int(c.user)); seg(&w, c.seg) }
        try column(cohortMoney) { w, c in w.int64(c.firstSeen); w.int64(c.time); w.int(Int(c.currency)); w.int64(c.micros); seg(&w, c.seg) }
        try column(activity) { w, a in w.int64(a.day); w.int(Int(a.user)) }
        try column(spans.rows) { w, r in
            let s = r.span
            w.int(Int(r.user)); w.time(s.start); w.int64(r.end); w.string(s.planState.rawValue)
            w.optional(s.graceReason) { $0.string($1.rawValue) }
            w.optional(s.graceEndsAt) { $0.time($1) }
            w.optional(s.product) { $0.string($1) }
            w.string(s.tier)
            w.optional(s.expiresAt) { $0.time($1) }
            w.optional(s.autoRenew) { $0.bool($1) }
            w.bool(s.billingIssue)
        }
        try file.commit(&w)
    }

    /// Reads the model at `path`: nil if there is none; `ProjectionReader.Unreadable` if it is not
    /// whole or not one a build makes. Without `spans`, the plan spans (the last section) are
    /// checked by the CRC but not parsed: the model then answers metrics, not customer lists.
    static func read(path: String, spans: Bool = true) throws -> AnalystModel? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source)
        let header = try r.header(magic, what: "an analysts' model file") { $0 == formatVersion ? nil : "another format version" }
        var m = AnalystModel([])
        m.fingerprint = header.fingerprint
        m.position = header.position
        m.hash = header.hash
        m.firstEvent = try r.optional { try $0.time() }
        func count() throws -> Int {
            let n = try r.count()
            guard n <= source.size else { throw r.unreadable("more rows than bytes") }
            return n
        }
        for _ in 0..<(try count()) {
            let s = try r.string()
            guard m.ids[s] == nil else { throw r.unreadable("a name twice") }
            _ = m.intern(s)
        }
        for _ in 0..<(try count()) {
            let u = try r.string()
            guard m.users.last.map({ $0 < u }) ?? true else { throw r.unreadable("users out of order") }
            m.users.append(u)
        }
        func id(_ r: inout ProjectionReader, below n: Int) throws -> Int32 {
            let v = try r.int()
            guard v >= 0, v < n else { throw r.unreadable("an id out of range") }
            return Int32(v)
        }
        let names = m.names.count, users = m.users.count
        func seg(_ r: inout ProjectionReader) throws -> Seg {
            var s = Seg(repeating: -1)
            for i in 0..<Segment.allCases.count { s[i] = try id(&r, below: names) }
            return s
        }
        func column<T>(_ key: (T) -> Int64, _ row: (inout ProjectionReader) throws -> T) throws -> [T] {
            var out: [T] = []
            var previous = Int64.min
            for _ in 0..<(try count()) {
                let x = try row(&r)
                guard key(x) >= previous else { throw r.unreadable("rows out of order") }
                previous = key(x)
                out.append(x)
            }
            return out
        }
        m.movements = try column({ $0.time }) { r in
            let time = try r.int64()
            guard let kind = AnalystFacts.Movement.Kind(rawValue: try r.byte()) else { throw r.unreadable("a movement of no known kind") }
            let currency = try id(&r, below: names), mrr = try r.int64()
            guard mrr >= 0 else { throw r.unreadable("a negative movement") }
            return Movement(time: time, kind: kind, currency: currency, mrr: mrr, user: try id(&r, below: users), seg: try seg(&r))
        }
        m.trials = try column({ $0.start }) { r in Trial(start: try r.int64(), convertedAt: try r.int64(), abandonedAt: try r.int64(), seg: try seg(&r)) }
        m.charges = try column({ $0.time }) { r in
            Charge(time: try r.int64(), user: try id(&r, below: users), currency: try id(&r, below: names), micros: try r.int64(), seg: try seg(&r))
        }
        m.refunds = try column({ $0.chargeTime }) { r in
            Refund(time: try r.int64(), chargeTime: try r.int64(), currency: try id(&r, below: names), micros: try r.int64(),
                   sign: try r.bool() ? 1 : -1, seg: try seg(&r))
        }
        m.customers = try column({ $0.firstSeen }) { r in
            Customer(firstSeen: try r.int64(), firstConversion: try r.int64(), firstPaid: try r.int64(), user: try id(&r, below: users), seg: try seg(&r))
        }
        m.cohortMoney = try column({ $0.firstSeen }) { r in
            CohortMoney(firstSeen: try r.int64(), time: try r.int64(), currency: try id(&r, below: names), micros: try r.int64(), seg: try seg(&r))
        }
        m.activity = try column({ $0.day }) { r in Activity(day: try r.int64(), user: try id(&r, below: users)) }
        guard spans else {
            // The rest is the spans: read through (checked by the CRC) in pieces, not parsed.
            while source.size - 4 - r.offset > 0 { try r.skip(min(1 << 20, source.size - 4 - r.offset)) }
            try r.checkCRCTrailer(after: "the plan spans")
            return m
        }
        var previous: (Int32, Int64)?
        var rows: [SpanIndex.Row] = []
        for _ in 0..<(try count()) {
            let user = try id(&r, below: users)
            let start = try r.time(), end = try r.int64()
            guard end > start.nanoseconds, previous.map({ $0 < (user, start.nanoseconds) }) ?? true else { throw r.unreadable("plan spans out of order") }
            previous = (user, start.nanoseconds)
            let span = AnalystFacts.Span(start: start, planState: try r.tag(PlanState.self), graceReason: try r.optional { try $0.tag(GraceReason.self) },
                                         graceEndsAt: try r.optional { try $0.time() }, product: try r.optional { try $0.string() }, tier: try r.string(),
                                         expiresAt: try r.optional { try $0.time() }, autoRenew: try r.optional { try $0.bool() }, billingIssue: try r.bool())
            rows.append(SpanIndex.Row(span: span, end: end, user: user))
        }
        try r.checkCRCTrailer(after: "the plan spans")
        m.spans = SpanIndex(rows)
        return m
    }
}
