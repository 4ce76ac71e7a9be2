import Projections
import SubscriptionDomain

/// `report --compare-known-at T`: each headline number of the report as known at T (the log's
/// records then) and now, the difference, and the late records (recorded after T, in effect by
/// the report's instant) with what each of their users changed.
public struct Restatement: Sendable {
    /// One headline number: `key` is its `data-k` (`revenue|/currencies[currency=USD]/gross`).
    public struct Figure: Sendable {
        public var key: String
        public var then: ReportValue
        public var now: ReportValue
        public var difference: ReportValue
    }

    /// A user with late records, and the headline numbers their fold moved (additive numbers only).
    public struct UserChange: Sendable {
        public var user: String
        public var records: [KnownAt.LateRecord]
        public var changes: [Figure]
    }

    public var knownAt: Timestamp
    public var figures: [Figure]
    public var lateRecords: Int
    public var lateUsers: Int
    /// The first `shownUsers` users with late records, in id order.
    public var users: [UserChange]
    public static let shownUsers = 100

    /// The headline numbers of the plain reports, in page order, with their JSON keys.
    public static func headline(counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport, currencies: [String]) -> [ReportValue] {
        var out: [ReportValue] = []
        for c in currencies {
            let line = revenue.lines.first { $0.currency == c }
            let k = "revenue|/currencies[currency=\(c)]/"
            out += [ReportValue.money(k + "gross", line?.gross ?? .zero, c), .money(k + "refunded", line?.refunded ?? .zero, c),
                    .money(k + "net", line?.net ?? .zero, c), .money(k + "mrr", line?.mrr ?? .zero, c)]
        }
        out += [ReportValue.int("revenue|/activeSubscriptions", revenue.activeSubscriptions), .int("revenue|/activeTrials", revenue.activeTrials),
                .int("revenue|/churnedSubscribers", revenue.churnedSubscribers), .rate("revenue|/churnRate", revenue.churnRate),
                .rate("revenue|/trialConversionRate", revenue.trialConversionRate)]
        out += funnel.steps.enumerated().map { ReportValue.int("funnel|/steps/\($0.offset)/users", $0.element.users) }
        out += [ReportValue.int("funnel|/trial/started", funnel.trialsStarted), .int("funnel|/trial/converted", funnel.trialsConverted)]
        out += LedgerSnapshot.metricNames.map { ReportValue.int("counts|/\($0)", counts[$0] ?? 0) }
        return out
    }

    /// `now − then` of two values of one key (money in `currency` when it is money).
    static func difference(_ then: ReportValue, _ now: ReportValue) -> ReportValue {
        if now.key.hasPrefix("revenue|/currencies["), let a = Money.parse(then.value), let b = Money.parse(now.value) {
            let currency = String(now.key.dropFirst("revenue|/currencies[currency=".count).prefix { $0 != "]" })
            let d = b - a
            var v = ReportValue.money(now.key, d, currency)
            if d > .zero { v.text = "+" + v.text }
            return v
        }
        if now.key.hasSuffix("Rate") {
            var v = ReportValue.rate(now.key, now.number - then.number)
            v.value = String(format: "%.4f", now.number - then.number)
            if now.number > then.number { v.text = "+" + v.text }
            return v
        }
        var v = ReportValue.int(now.key, Int(now.number) - Int(then.number))
        if now.number > then.number { v.text = "+" + v.text }
        return v
    }

    /// The figures of `then` and `now` side by side (same keys, same order).
    static func figures(_ then: [ReportValue], _ now: [ReportValue]) -> [Figure] {
        zip(then, now).map { Figure(key: $1.key, then: $0, now: $1, difference: difference($0, $1)) }
    }

    /// Compares the reports as known at `knownAt` (`then`) and now. `users` gives, per user with
    /// late records, that user's reports then and now (in id order).
    public init(knownAt: Timestamp, then: (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport),
                now: (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport), late: [KnownAt.LateRecord],
                users: [(user: String, then: (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport),
                         now: (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport))]) {
        self.knownAt = knownAt
        let currencies = Set(then.revenue.lines.map(\.currency)).union(now.revenue.lines.map(\.currency)).sorted()
        func values(_ r: (counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport)) -> [ReportValue] {
            Self.headline(counts: r.counts, funnel: r.funnel, revenue: r.revenue, currencies: currencies)
        }
        figures = Self.figures(values(then), values(now))
        lateRecords = late.count
        let byUser = Dictionary(grouping: late, by: \.user)
        lateUsers = byUser.count
        self.users = users.prefix(Self.shownUsers).map { u in
            let changed = Self.figures(values(u.then), values(u.now)).filter { $0.then.value != $0.now.value && !$0.key.hasSuffix("Rate") }
            return UserChange(user: u.user, records: byUser[u.user] ?? [], changes: changed)
        }
    }

    /// `{"knownAt","lateRecords","lateUsers","figures":[{"key","then","now","difference"}],
    /// "users":[{"user","records":[{"position","id","type","time","recorded"}],"changes":[{"key","then","now","difference"}]}]}`;
    /// values as the reports' JSON writes them (money as decimal strings, rates as numbers).
    public var json: JSON {
        func value(_ v: ReportValue) -> JSON {
            if v.key.hasPrefix("revenue|/currencies[") { return .string(v.value) }
            if v.key.hasSuffix("Rate") { return .double(v.number) }
            return .int(Int(v.value) ?? 0)
        }
        func figure(_ f: Figure) -> JSON {
            var d = value(f.difference)
            if f.key.hasSuffix("Rate") { d = .double(f.now.number - f.then.number) }
            return .object([("key", .string(f.key)), ("then", value(f.then)), ("now", value(f.now)), ("difference", d)])
        }
        return .object([
            ("knownAt", .time(knownAt)), ("lateRecords", .int(lateRecords)), ("lateUsers", .int(lateUsers)),
            ("figures", .array(figures.map(figure))),
            ("users", .array(users.map { u in .object([
                ("user", .string(u.user)),
                ("records", .array(u.records.map { r in .object([
                    ("position", .int(Int(clamping: r.position))), ("id", .string(r.id)), ("type", .string(r.type)),
                    ("time", .time(r.time)), ("recorded", .time(r.recorded)),
                ]) })),
                ("changes", .array(u.changes.map(figure))),
            ]) })),
        ])
    }
}
