import Projections
import EventStore
import SubscriptionDomain
import Platform

// The analysts' model file, in the log's projections folder next to the projection it goes with:
//
//   "LDGANL2\n", then the sections back to back: names, users, movements, trials, charges,
//   refunds, customers, cohort money, activity, plan spans (each a row count, then its rows in
//   their sorted order); then the table: format version (varint), projection fingerprint
//   (string), head position (int64), the log's chain hash there (32 bytes), first event
//   (optional int64), the number of users (varint), the number of sections (varint) and per
//   section its offset (int64), length (int64) and the CRC32C of its bytes (uint32); then the
//   table's length (uint32) and the CRC32C of the table (uint32), the file's last 8 bytes.
//
// A query reads the table and only the sections it needs (metrics: names and the fact columns;
// customer lists: names, users, movements and spans), each checked by its own CRC when read. A
// table or a section read that fails its CRC, is of another version, or holds a value or an
// order no build makes (a name or user id out of range, rows out of order) is
// `ProjectionReader.Unreadable` (rebuilt, never served).

extension AnalystModel {
    static let magic = Array("LDGANL2\n".utf8)
    /// Bump when the model's content or stored form changes: stored models of other versions are rebuilt.
    static let formatVersion = 2

    /// The sections, in file order.
    enum Section: Int, CaseIterable {
        case names, users, movements, trials, charges, refunds, customers, cohortMoney, activity, spans
        /// What `metrics` reads; customer lists read `customerSections`.
        static let metricSections: [Section] = [.names, .movements, .trials, .charges, .refunds, .customers, .cohortMoney, .activity]
        static let customerSections: [Section] = [.names, .users, .movements, .spans]
    }

    /// Writes the model to `path` (a temporary file put in place atomically).
    func write(path: String) throws {
        let file = try DurableFile.Replacement(path: path)
        var w = ProjectionWriter()
        var offset = 0, sectionStart = 0, crc: UInt32 = 0
        var table: [(offset: Int, length: Int, crc: UInt32)] = []
        func flush() throws {
            try w.drain { bytes in
                crc = CRC32C.checksum(bytes, continuing: crc)
                offset += bytes.count
                try file.append(bytes)
            }
        }
        w.raw(Self.magic)
        try w.drain { offset += $0.count; try file.append($0) }
        func section(_ body: () throws -> Void) throws {
            sectionStart = offset
            crc = 0
            try body()
            try flush()
            table.append((sectionStart, offset - sectionStart, crc))
        }
        func column<T>(_ rows: [T], _ body: (T) -> Void) throws {
            try section {
                w.count(rows.count)
                for r in rows {
                    body(r)
                    if w.bytes.count >= 1 << 20 { try flush() }
                }
            }
        }
        try column(names) { w.string($0) }
        try column(users) { w.string($0) }
        // The fact columns: their rows' fixed-width bytes as they are kept (`FixedColumn`).
        for bytes in [movements.bytes, trials.bytes, charges.bytes, refunds.bytes, customers.bytes, cohortMoney.bytes, activity.bytes] {
            try section {
                for i in stride(from: 0, to: bytes.count, by: 1 << 20) {
                    w.raw(bytes[i..<min(bytes.count, i + (1 << 20))])
                    try flush()
                }
            }
        }
        // Plan states, grace reasons and auto-renew by frozen one-byte codes, products and tiers by name id.
        try column(spans.rows) { r in
            let s = r.span
            w.int(Int(r.user)); w.time(s.start); w.int64(r.end); w.byte(Self.code(s.planState))
            w.byte(s.graceReason.map { $0 == .billing ? 1 : 2 } ?? 0)
            w.optional(s.graceEndsAt) { $0.time($1) }
            w.int(s.product.map { Int(ids[$0]!) } ?? -1)
            w.int(Int(ids[s.tier]!))
            w.optional(s.expiresAt) { $0.time($1) }
            w.byte(s.autoRenew.map { $0 ? 1 : 2 } ?? 0)
            w.bool(s.billingIssue)
        }
        var t = ProjectionWriter()
        t.count(Self.formatVersion)
        t.string(fingerprint)
        t.int64(Int64(bitPattern: position))
        t.raw(hash.bytes)
        t.optional(firstEvent) { $0.time($1) }
        t.count(userCount)
        t.count(table.count)
        for s in table { t.int64(Int64(s.offset)); t.int64(Int64(s.length)); t.uint32(s.crc) }
        let tableCRC = CRC32C.checksum(t.bytes)
        let length = UInt32(t.bytes.count)
        t.uint32(length)
        t.uint32(tableCRC)
        try t.drain { try file.append($0) }
        try file.commit()
    }

    /// Reads the model at `path`: nil if there is none; `ProjectionReader.Unreadable` if its table
    /// or a section it reads is not whole or not one a build makes. Without `spans`, only the
    /// sections metrics read (`Section.metricSections`): the model then answers metrics, not
    /// customer lists; with `spans`, only those customer lists read (it then answers no metric).
    static func read(path: String, spans: Bool = true) throws -> AnalystModel? {
        guard PlatformDirectory.exists(path) else { return nil }
        let file = try RandomAccessFile(path: path, create: false)
        let size = try file.size()
        let unreadable = { (offset: Int, reason: String) in ProjectionReader.Unreadable(offset: offset, reason: reason) }
        guard size >= Self.magic.count + 8, try file.read(at: 0, count: Self.magic.count) == Self.magic else {
            throw unreadable(0, "not an analysts' model file")
        }
        let end = try file.read(at: size - 8, count: 8)
        func uint32(_ b: ArraySlice<UInt8>) -> UInt32 { b.reversed().reduce(0) { $0 << 8 | UInt32($1) } }
        let length = Int(uint32(end[0..<4])), tableCRC = uint32(end[4..<8])
        guard length <= size - 8 - Self.magic.count else { throw unreadable(size - 8, "a table longer than the file") }
        let tableOffset = size - 8 - length
        let tableBytes = try file.read(at: tableOffset, count: length)
        guard CRC32C.checksum(tableBytes) == tableCRC else { throw unreadable(tableOffset, "the table's CRC does not match") }
        var t = ByteParser(tableBytes, fileOffset: tableOffset)
        guard try t.count() == formatVersion else { throw t.unreadable("another format version") }
        var m = AnalystModel([])
        m.fingerprint = try t.string()
        m.position = UInt64(bitPattern: try t.int64())
        m.hash = EventStore.SHA256.Digest(bytes: Array(try t.raw(32)))
        m.firstEvent = try t.bool() ? Timestamp(nanoseconds: try t.int64()) : nil
        let userCount = try t.count()
        m.userCount = userCount
        guard try t.count() == Section.allCases.count else { throw t.unreadable("another number of sections") }
        var sections: [(offset: Int, length: Int, crc: UInt32)] = []
        var next = Self.magic.count
        for _ in Section.allCases {
            let offset = Int(try t.int64()), length = Int(try t.int64()), crc = uint32(try t.raw(4))
            guard offset == next, length >= 0, length <= tableOffset - offset else { throw t.unreadable("sections that do not follow one another") }
            next = offset + length
            sections.append((offset, length, crc))
        }
        guard next == tableOffset, t.isAtEnd else { throw t.unreadable("a table that does not end the sections") }

        /// A section's bytes, checked by its CRC, and a parser over them.
        func parser(_ s: Section) throws -> ByteParser {
            let (offset, length, crc) = sections[s.rawValue]
            let bytes = try file.read(at: offset, count: length)
            guard bytes.count == length, CRC32C.checksum(bytes) == crc else { throw unreadable(offset, "the \(s) section's CRC does not match") }
            return ByteParser(bytes, fileOffset: offset)
        }
        func rows(_ p: inout ByteParser, limit: Int) throws -> Int {
            let n = try p.count()
            guard n <= limit else { throw p.unreadable("more rows than bytes") }
            return n
        }
        var p = try parser(.names)
        for _ in 0..<(try rows(&p, limit: sections[0].length)) {
            let s = try p.string()
            guard m.ids[s] == nil else { throw p.unreadable("a name twice") }
            _ = m.intern(s)
        }
        guard p.isAtEnd else { throw p.unreadable("bytes after the names") }
        let names = m.names.count
        func id(_ p: inout ByteParser, below n: Int) throws -> Int32 {
            let v = try p.int()
            guard v >= 0, v < n else { throw p.unreadable("an id out of range") }
            return Int32(v)
        }
        func seg(_ p: inout ByteParser) throws -> Seg {
            var s = Seg(repeating: -1)
            for i in 0..<Segment.allCases.count { s[i] = try id(&p, below: names) }
            return s
        }
        func column<T>(_ s: Section, _ key: (T) -> Int64, _ row: (inout ByteParser) throws -> T) throws -> [T] {
            var p = try parser(s)
            var out: [T] = []
            var previous = Int64.min
            let n = try rows(&p, limit: sections[s.rawValue].length)
            out.reserveCapacity(n)
            for _ in 0..<n {
                let x = try row(&p)
                guard key(x) >= previous else { throw p.unreadable("rows out of order") }
                previous = key(x)
                out.append(x)
            }
            guard p.isAtEnd else { throw p.unreadable("bytes after the \(s) section") }
            return out
        }
        /// A fact column in place: its section's bytes, each row checked (order, ids, values a build makes).
        func fixed<T: FixedRow>(_ s: Section, _ key: (T) -> Int64, _ check: (T) -> String?) throws -> FixedColumn<T> {
            let (offset, length, crc) = sections[s.rawValue]
            let bytes = try file.read(at: offset, count: length)
            guard bytes.count == length, CRC32C.checksum(bytes) == crc else { throw unreadable(offset, "the \(s) section's CRC does not match") }
            guard length % T.width == 0 else { throw unreadable(offset, "a \(s) section that is not whole rows") }
            let column = FixedColumn<T>(bytes: bytes)
            var previous = Int64.min
            for i in column.indices {
                let row = column[i]
                guard key(row) >= previous else { throw unreadable(offset + i * T.width, "rows out of order") }
                previous = key(row)
                if let why = check(row) { throw unreadable(offset + i * T.width, why) }
            }
            return column
        }
        func ids(_ s: Seg) -> String? {
            for i in 0..<Segment.allCases.count where s[i] < 0 || Int(s[i]) >= names { return "a segment id out of range" }
            return nil
        }
        func user(_ u: Int32) -> String? { u < 0 || Int(u) >= userCount ? "a user id out of range" : nil }
        func name(_ n: Int32) -> String? { n < 0 || Int(n) >= names ? "a name id out of range" : nil }
        m.movements = try fixed(.movements, { $0.time }) { (r: Movement) in r.mrr < 0 ? "a negative movement" : user(r.user) ?? name(r.currency) ?? ids(r.seg) }
        // The kind byte of each movement must be one a build writes (decoding does not look).
        for i in m.movements.indices where AnalystFacts.Movement.Kind(rawValue: m.movements.bytes[(i + 1) * Movement.width - 1]) == nil {
            throw unreadable(sections[Section.movements.rawValue].offset + i * Movement.width, "a movement of no known kind")
        }
        guard spans else {
            m.parts = .metrics
            m.trials = try fixed(.trials, { $0.start }) { (r: Trial) in ids(r.seg) }
            m.charges = try fixed(.charges, { $0.time }) { (r: Charge) in user(r.user) ?? name(r.currency) ?? ids(r.seg) }
            m.refunds = try fixed(.refunds, { $0.chargeTime }) { (r: Refund) in r.sign != 1 && r.sign != -1 ? "a refund of no known sign" : name(r.currency) ?? ids(r.seg) }
            m.customers = try fixed(.customers, { $0.firstSeen }) { (r: Customer) in user(r.user) ?? ids(r.seg) }
            m.cohortMoney = try fixed(.cohortMoney, { $0.firstSeen }) { (r: CohortMoney) in name(r.currency) ?? ids(r.seg) }
            m.activity = try fixed(.activity, { $0.day }) { (r: Activity) in user(r.user) }
            return m
        }
        m.parts = .customerLists
        p = try parser(.users)
        let n = try rows(&p, limit: sections[Section.users.rawValue].length)
        guard n == userCount else { throw p.unreadable("\(n) users where the table says \(userCount)") }
        m.users.reserveCapacity(n)
        for _ in 0..<n {
            let u = try p.string()
            guard m.users.last.map({ $0 < u }) ?? true else { throw p.unreadable("users out of order") }
            m.users.append(u)
        }
        guard p.isAtEnd else { throw p.unreadable("bytes after the users") }
        var previous: (Int32, Int64)?
        func optionalTime(_ p: inout ByteParser) throws -> Timestamp? { try p.bool() ? Timestamp(nanoseconds: try p.int64()) : nil }
        let spanRows = try column(.spans, { _ in 0 }) { p -> SpanIndex.Row in
            let user = try id(&p, below: userCount)
            let start = Timestamp(nanoseconds: try p.int64()), end = try p.int64()
            guard end > start.nanoseconds, previous.map({ $0 < (user, start.nanoseconds) }) ?? true else { throw p.unreadable("plan spans out of order") }
            previous = (user, start.nanoseconds)
            guard let state = Self.planState(code: try p.byte()) else { throw p.unreadable("a plan state of no known kind") }
            let grace = try p.byte()
            guard grace <= 2 else { throw p.unreadable("a grace reason of no known kind") }
            let graceEndsAt = try optionalTime(&p)
            let product = try p.int()
            guard product >= -1, product < names else { throw p.unreadable("an id out of range") }
            let tier = try id(&p, below: names)
            let expiresAt = try optionalTime(&p)
            let autoRenew = try p.byte()
            guard autoRenew <= 2 else { throw p.unreadable("an auto-renew flag of no known kind") }
            let span = AnalystFacts.Span(start: start, planState: state, graceReason: grace == 0 ? nil : grace == 1 ? .billing : .unverified,
                                         graceEndsAt: graceEndsAt, product: product < 0 ? nil : m.names[product], tier: m.names[Int(tier)],
                                         expiresAt: expiresAt, autoRenew: autoRenew == 0 ? nil : autoRenew == 1, billingIssue: try p.bool())
            return SpanIndex.Row(span: span, end: end, user: user)
        }
        m.spans = SpanIndex(spanRows)
        return m
    }
}

extension AnalystModel {
    /// A plan state's frozen one-byte code in the stored spans (never its place in `allCases`, which moves when a case is added).
    static func code(_ s: PlanState) -> UInt8 {
        switch s {
        case .guest: 0
        case .free: 1
        case .trial: 2
        case .pro: 3
        case .proGrace: 4
        }
    }

    static func planState(code: UInt8) -> PlanState? {
        switch code {
        case 0: .guest
        case 1: .free
        case 2: .trial
        case 3: .pro
        case 4: .proGrace
        default: nil
        }
    }
}
