import Projections
import EventStore
import SubscriptionDomain
import Platform

// The report summary's file: a magic line, the format version, the projection fingerprint, the
// log position and chain hash it covers, the instant it is as of, the sums, then the deadlines and
// the notification schedule as two sections each prefixed by its length in bytes (so a query
// that needs neither all the deadlines nor the schedule passes over them), and the CRC32C of all
// that in the last 4 bytes (ProjectionWriter's encodings). Written to a temporary file and
// renamed over the old one.

extension ReportSummary {
    static let magic = Array("LDGSUMM\n".utf8)

    /// What a load reads past the sums: every deadline and the schedule (to update and rewrite
    /// the summary), or only the deadlines up to an instant (to answer without rewriting).
    enum Depth {
        case deadlines(upTo: Timestamp, notifications: Bool)
        case whole
    }

    /// The summary file at `path`; nil if there is none, `ProjectionReader.Unreadable` if it is not whole.
    static func read(path: String, depth: Depth) throws -> ReportSummary? {
        guard let source = try DurableFile.Source(path: path) else { return nil }
        var r = ProjectionReader(source: source, chunk: 1 << 20)
        let header = try r.header(magic, what: "a report summary") { $0 == formatVersion ? nil : "another summary format" }
        var s = ReportSummary(fingerprint: header.fingerprint, position: header.position, hash: header.hash, instant: try r.time())
        // A count of users is at most the log's records (every user, a transfer's recipient too, has
        // one), so that sums and rates over them cannot overflow, whatever a file says.
        func users() throws -> Int {
            let n = try r.int(), position = header.position
            guard n >= 0, position < 1 << 48, n <= Int(position) else { throw r.unreadable("a count of \(n) users in a log of \(position) records") }
            return n
        }
        for i in 0..<MetricCounts.capacity { s.metricCounts[i] = try r.varint() }
        s.users = try users()
        guard try r.count() == s.reached.count else { throw r.unreadable("funnel steps differ") }
        for i in s.reached.indices { s.reached[i] = try users() }
        for _ in 0..<(try r.count()) {
            let context = try r.string()
            s.contexts[context] = try s.reached.indices.map { _ in try users() }
        }
        for _ in 0..<(try r.count()) {
            let day = try r.int64()
            // A trial day is one of a Timestamp's (Int64 nanoseconds): the funnel multiplies it back to seconds.
            let limit = Int64.max / 1_000_000_000 / 86_400
            guard (-limit...limit).contains(day) else { throw r.unreadable("trial day \(day) out of range") }
            s.days[day] = DayCount(started: try users(), converted: try users())
        }
        s.trialsStarted = try users()
        s.trialsConverted = try users()
        s.active = try users()
        s.trials = try users()
        s.churned = try users()
        s.gross = try r.moneySums()
        s.refunded = try r.moneySums()
        s.adjustment = try r.moneySums()
        s.mrr = try r.moneySums()
        let deadlineBytes = try r.count()
        let deadlinesEnd = r.offset + deadlineBytes
        while r.offset < deadlinesEnd {
            let d = Deadline(time: try r.time(), user: try r.string())
            if case .deadlines(let upTo, _) = depth, d.time > upTo { break }
            s.deadlines.append(d)
        }
        try r.skip(deadlinesEnd - r.offset)
        let noteBytes = try r.count()
        if case .deadlines(_, false) = depth {
            try r.skip(noteBytes)
        } else {
            // Kept as bytes: decoded when the schedule is printed or changed.
            s.scheduleBytes = try r.raw(noteBytes)
            if case .deadlines = depth { try s.decodeSchedule() }
        }
        try r.checkCRCTrailer(after: "the summary")
        return s
    }

    /// Writes the summary (every deadline and the whole schedule must be loaded) to a temporary file, then puts it in place.
    func write(path: String) throws {
        var file = try ChecksummedReplacement(path: path)
        var w = ProjectionWriter()
        w.header(Self.magic, DerivedFileHeader(version: Self.formatVersion, fingerprint: fingerprint, position: position, hash: hash))
        w.time(instant)
        for c in metricCounts { w.varint(c) }
        w.int(users)
        w.count(reached.count)
        for n in reached { w.int(n) }
        w.count(contexts.count)
        for (context, h) in contexts.sorted(by: { $0.key < $1.key }) {
            w.string(context)
            for n in h { w.int(n) }
        }
        w.count(days.count)
        for (day, d) in days.sorted(by: { $0.key < $1.key }) {
            w.int64(day)
            w.int(d.started)
            w.int(d.converted)
        }
        for n in [trialsStarted, trialsConverted, active, trials, churned] { w.int(n) }
        for map in [gross, refunded, adjustment, mrr] { w.moneySums(map) }
        var section = ProjectionWriter()
        for d in deadlines {
            section.time(d.time)
            section.string(d.user)
        }
        w.count(section.bytes.count)
        w.raw(section.bytes)
        try file.flush(&w)
        section.removeAll()
        if let raw = scheduleBytes {
            section.raw(raw)
        } else {
            for n in schedule {
                section.string(n.user)
                section.byte(n.entry.kind == .trialEnding ? 0 : 1)
                section.time(n.entry.fireAt)
                section.time(n.entry.scheduledAt)
                let switches = n.entry.channelSwitches
                section.byte((n.entry.inAppOnly ? 1 : 0) | (n.entry.cancelled ? 2 : 0) | (switches.isEmpty ? 0 : 4))
                if let c = n.entry.cancelledAt { section.time(c) }
                if !switches.isEmpty {
                    section.count(switches.count)
                    for t in switches { section.time(t) }
                }
            }
        }
        w.count(section.bytes.count)
        try file.flush(&w)
        try file.flush(&section)
        try file.commit(&w)
    }
}

extension ReportSummary {
    /// Decodes the schedule section kept as bytes (a no-op when it is decoded already).
    mutating func decodeSchedule() throws {
        guard let raw = scheduleBytes else { return }
        var out: [Note] = []
        var at = 0
        func fail(_ why: String) -> ProjectionReader.Unreadable { ProjectionReader.Unreadable(offset: at, reason: "schedule: " + why) }
        func need(_ n: Int) throws { guard n >= 0, raw.count - at >= n else { throw fail("ends early") } }
        func varint() throws -> Int {
            var v = 0, shift = 0
            while true {
                try need(1)
                let b = raw[at]
                at += 1
                v |= Int(b & 0x7f) << shift
                if b < 0x80 { return v }
                shift += 7
                guard shift < 35 else { throw fail("length too long") }
            }
        }
        func time() throws -> Timestamp {
            try need(8)
            defer { at += 8 }
            return Timestamp(nanoseconds: raw.withUnsafeBytes { Int64(littleEndian: $0.loadUnaligned(fromByteOffset: at, as: Int64.self)) })
        }
        while at < raw.count {
            let n = try varint()
            try need(n)
            let user = String(decoding: raw[at..<(at + n)], as: UTF8.self)
            at += n
            try need(1)
            let kindByte = raw[at]
            at += 1
            guard kindByte < 2 else { throw fail("notification kind \(kindByte)") }
            let fireAt = try time()
            let scheduledAt = try time()
            try need(1)
            let flags = raw[at]
            at += 1
            guard flags < 8 else { throw fail("notification flags \(flags)") }
            let cancelledAt = flags & 2 != 0 ? try time() : nil
            var switches: [Timestamp] = []
            if flags & 4 != 0 {
                let count = try varint()
                // Each time takes 8 bytes: a count the section cannot hold is refused as such (not as "ends early").
                guard count > 0, count <= (raw.count - at) / 8 else { throw fail("\(count) channel switches") }
                for _ in 0..<count { switches.append(try time()) }
            }
            out.append(Note(user: user, entry: NotificationEntry(kind: kindByte == 0 ? .trialEnding : .paymentFailed, fireAt: fireAt, key: "",
                                                                 inAppOnly: flags & 1 != 0, scheduledAt: scheduledAt,
                                                                 cancelledAt: cancelledAt, channelSwitches: switches)))
        }
        schedule = out
        scheduleBytes = nil
    }
}

extension ProjectionWriter {
    mutating func int128(_ v: Int128) {
        int64(Int64(truncatingIfNeeded: v))
        int64(Int64(truncatingIfNeeded: v >> 64))
    }

    mutating func moneySums(_ map: [String: ReportSummary.MoneySum]) {
        count(map.count)
        for (currency, s) in map.sorted(by: { $0.key < $1.key }) {
            string(currency)
            int128(s.sum)
            int128(s.magnitude)
            int(s.holders)
        }
    }
}

extension ProjectionReader {
    mutating func int128() throws -> Int128 {
        let low = UInt64(bitPattern: try int64())
        let high = try int64()
        return Int128(high) << 64 | Int128(low)
    }

    mutating func moneySums() throws -> [String: ReportSummary.MoneySum] {
        var out: [String: ReportSummary.MoneySum] = [:]
        for _ in 0..<(try count()) {
            let currency = try string()
            let sum = try int128(), magnitude = try int128(), holders = try int()
            // Far inside Int128 (2^120: 2^48 users of Int64 amounts each), so that updates cannot overflow.
            guard magnitude >= 0, magnitude <= Int128(1) << 120, sum <= magnitude, sum >= -magnitude, holders >= 0, holders < 1 << 48 else {
                throw unreadable("the \(currency) sums are out of range")
            }
            out[currency] = ReportSummary.MoneySum(sum: sum, magnitude: magnitude, holders: holders)
        }
        return out
    }
}
