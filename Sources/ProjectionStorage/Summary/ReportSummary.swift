import Projections
import EventStore
import SubscriptionDomain

/// The figures of `counts`, `funnel`, `revenue` and `notifications` as of one instant, kept as
/// sums of every user's contribution (`UserContribution`), so that a user whose events or timers
/// changed is taken out with what they added and put back with what they add now, without
/// reading the other users (ProjectionStore+Summary.swift). Kept next to the projection in its
/// own file (ReportSummary+Binary.swift), naming the projection fingerprint, the log head and
/// the instant it answers for; with the deadlines after that instant at which some user's
/// contribution may change without a new record (a timer, a notification's fire time, a
/// future-dated event).
///
/// It answers only the reports as of an instant with default options (no window, sandbox apart):
/// anything else folds as before.
public struct ReportSummary: Sendable {
    /// Bump when the summary's content or stored form changes: stored summaries of other versions are rebuilt.
    static let formatVersion = 2

    /// The projection fingerprint (profile, rules, fold code version) the contributions were folded with.
    var fingerprint: String
    /// The log position the summary covers and the log's chain hash there.
    var position: UInt64
    var hash: EventStore.SHA256.Digest
    /// The instant the figures are as of; later instants are answered after the deadlines up to them are re-evaluated.
    public internal(set) var instant: Timestamp

    /// Per metric slot, summed over users (wrapping, as the snapshot sums).
    var metricCounts = [UInt64](repeating: 0, count: MetricCounts.capacity)
    /// Users with a fold.
    var users = 0
    /// Users by steps reached (0…4), overall and per paywall context.
    var reached = [Int](repeating: 0, count: FunnelProgress.steps.count + 1)
    var contexts: [String: [Int]] = [:]
    /// Per day of trial start (days since 1970): trials started and those converted.
    var days: [Int64: DayCount] = [:]
    var trialsStarted = 0, trialsConverted = 0
    var active = 0, trials = 0, churned = 0
    var gross: [String: MoneySum] = [:], refunded: [String: MoneySum] = [:], adjustment: [String: MoneySum] = [:], mrr: [String: MoneySum] = [:]
    /// The notification schedule, in schedule order (statuses are given at the query's instant).
    var schedule: [Note] = []
    /// The schedule section as read, while it is not decoded (`decodeSchedule`) nor changed.
    var scheduleBytes: [UInt8]?
    /// Per user with one, the first instant after `instant` at which their contribution may change, by time then user.
    var deadlines: [Deadline] = []

    struct DayCount: Sendable, Equatable {
        var started = 0
        var converted = 0
    }

    /// A sum of money over users, exact (128 bits), with the sum of magnitudes (a snapshot sums with
    /// saturation: the two agree while no partial sum can pass Int64's range) and how many users
    /// hold an entry in the currency (the report lists a currency while one does).
    struct MoneySum: Sendable, Equatable {
        var sum: Int128 = 0
        var magnitude: Int128 = 0
        var holders = 0
    }

    /// One scheduled notification as the summary keeps it.
    struct Note: Sendable, Equatable {
        var user: String
        var entry: NotificationEntry
    }

    struct Deadline: Sendable, Equatable {
        var time: Timestamp
        var user: String
    }

    init(fingerprint: String, position: UInt64, hash: EventStore.SHA256.Digest, instant: Timestamp) {
        self.fingerprint = fingerprint
        self.position = position
        self.hash = hash
        self.instant = instant
    }

    /// Adds (`sign` 1) or takes out (`sign` −1) one user's contribution to the sums.
    mutating func add(_ c: UserContribution, sign: Int) {
        guard c.exists else { return }
        let s64 = UInt64(bitPattern: Int64(sign))
        for i in 0..<MetricCounts.capacity { metricCounts[i] &+= UInt64(c.counts[slot: i]) &* s64 }
        users += sign
        reached[Int(c.reached)] += sign
        for p in c.contexts {
            var h = contexts[p.context] ?? [Int](repeating: 0, count: reached.count)
            h[Int(p.reached)] += sign
            contexts[p.context] = h.allSatisfy { $0 == 0 } ? nil : h
        }
        if let day = c.trialDay {
            var d = days[day] ?? DayCount()
            d.started += sign
            if c.trialConverted { d.converted += sign }
            days[day] = d.started == 0 && d.converted == 0 ? nil : d
        }
        if c.trialStarted { trialsStarted += sign }
        if c.trialConverted { trialsConverted += sign }
        active += sign * c.stock.active
        trials += sign * c.stock.trial
        churned += sign * c.stock.churned
        func money(_ amounts: [UserBooks.Amount], _ map: inout [String: MoneySum]) {
            for a in amounts { Self.add(a.money, a.currency, sign, &map) }
        }
        money(c.gross, &gross)
        money(c.refunded, &refunded)
        money(c.adjustment, &adjustment)
        if c.stock.active > 0, !c.stock.currency.isEmpty { Self.add(c.stock.mrr, c.stock.currency, sign, &mrr) }
    }

    private static func add(_ m: Money, _ currency: String, _ sign: Int, _ map: inout [String: MoneySum]) {
        var s = map[currency] ?? MoneySum()
        let v = Int128(m.micros)
        s.sum += sign > 0 ? v : -v
        s.magnitude += sign > 0 ? v.magnitude128 : -v.magnitude128
        s.holders += sign
        map[currency] = s.holders == 0 ? nil : s
    }

    /// Whether every figure is what a snapshot's sums give: no sum of money could have saturated there.
    var isExact: Bool {
        let limit = Int128(Int64.max)
        return [gross, refunded, adjustment, mrr].allSatisfy { $0.values.allSatisfy { $0.magnitude <= limit } }
    }

    /// Users whose deadline is at or before `instant`.
    func expired(upTo instant: Timestamp) -> [String] {
        var out: [String] = []
        for d in deadlines {
            guard d.time <= instant else { break }
            out.append(d.user)
        }
        return out
    }

    /// Takes out every notification and deadline of `users`, then puts in the given ones, keeping both lists in order.
    /// With `scheduleChanged` false (every user's entries are as they were), the schedule is left as it is.
    mutating func replace(users: Set<String>, notes: [Note], scheduleChanged: Bool, deadlines new: [Deadline]) throws {
        guard !users.isEmpty else { return }
        if scheduleChanged {
            try decodeSchedule()
            schedule.removeAll { users.contains($0.user) }
            schedule.append(contentsOf: notes)
            // Stable: a user's own entries that tie keep the order the fold made them in.
            schedule.sort { Self.inScheduleOrder($0, $1) }   // a closure: the comparison inlined
        }
        deadlines.removeAll { users.contains($0.user) }
        deadlines.append(contentsOf: new)
        deadlines.sort { $0.time != $1.time ? $0.time < $1.time : $0.user < $1.user }
    }

    static func inScheduleOrder(_ a: Note, _ b: Note) -> Bool {
        if a.entry.fireAt != b.entry.fireAt { return a.entry.fireAt < b.entry.fireAt }
        if a.user != b.user { return a.user < b.user }
        return a.entry.kind == .paymentFailed && b.entry.kind == .trialEnding
    }
}

extension Int128 {
    fileprivate var magnitude128: Int128 { self < 0 ? -self : self }
}
