import EventStore
import SubscriptionDomain

/// The analysts' model of a log as of its head: every user's dated facts (`AnalystFacts`) as
/// columns sorted by the instant they are asked by, so that a metric of a window as of an instant
/// is two binary searches and a read of the facts inside the window (AnalystModel+Metrics.swift),
/// and a customer list as of an instant reads only the plan spans of that instant's epoch
/// (AnalystModel+Users.swift). Strings (users, currencies, segment values) are interned.
public struct AnalystModel: Sendable {
    /// Segment value ids, lane `i` for `Segment.allCases[i]` (lanes 5…7 unused).
    typealias Seg = SIMD8<Int32>

    struct Movement: Sendable {
        var time: Int64
        var kind: AnalystFacts.Movement.Kind
        var currency: Int32
        var mrr: Int64
        var user: Int32
        var seg: Seg
    }
    struct Trial: Sendable {
        var start: Int64
        var convertedAt: Int64
        var abandonedAt: Int64
        var seg: Seg
    }
    struct Charge: Sendable {
        var time: Int64
        var user: Int32
        var currency: Int32
        var micros: Int64
        var seg: Seg
    }
    struct Refund: Sendable {
        var time: Int64
        var chargeTime: Int64
        var currency: Int32
        var micros: Int64
        var sign: Int8
        var seg: Seg
    }
    struct Customer: Sendable {
        var firstSeen: Int64
        var firstConversion: Int64
        var firstPaid: Int64
        var user: Int32
        var seg: Seg
    }
    /// A charge (positive) or refund (negative) of a customer, by the customer's first-seen instant.
    struct CohortMoney: Sendable {
        var firstSeen: Int64
        var time: Int64
        var currency: Int32
        var micros: Int64
        var seg: Seg
    }
    struct Activity: Sendable {
        var day: Int64
        var user: Int32
    }

    /// "Never": the instant of a fact that has not happened.
    static let never = Int64.max

    public internal(set) var names: [String] = []
    var ids: [String: Int32] = [:]
    public internal(set) var users: [String] = []
    /// The number of users (every user id is below it), also when `users` was not read.
    var userCount = 0
    // The fact columns, kept in their stored form (`FixedColumn`) and decoded as a query reads them.
    var movements = FixedColumn<Movement>([])
    var trials = FixedColumn<Trial>([])
    var charges = FixedColumn<Charge>([])
    var refunds = FixedColumn<Refund>([])
    var customers = FixedColumn<Customer>([])
    var cohortMoney = FixedColumn<CohortMoney>([])
    var activity = FixedColumn<Activity>([])
    var spans: SpanIndex

    /// What the model derives from: the projection fingerprint (profile, rules, fold code) and
    /// the log's head (position and chain hash) it was built at.
    var fingerprint = ""
    public internal(set) var position: UInt64 = 0
    var hash = EventStore.SHA256.Digest(bytes: [UInt8](repeating: 0, count: 32))

    /// What a model read from its file holds: a query reads only its own sections.
    enum Parts: Sendable { case all, metrics, customerLists }
    var parts = Parts.all

    /// The earliest event of the log (a window's default start), if any.
    public internal(set) var firstEvent: Timestamp?

    mutating func intern(_ s: String) -> Int32 {
        if let id = ids[s] { return id }
        let id = Int32(names.count)
        names.append(s)
        ids[s] = id
        return id
    }

    mutating func seg(_ v: SegmentValues) -> Seg {
        var s = Seg(repeating: -1)
        for (i, value) in v.values.enumerated() { s[i] = intern(value) }
        return s
    }

    /// The model of every user's facts (in any order of users).
    init(_ all: [AnalystFacts]) {
        spans = SpanIndex()
        var spanRows: [SpanIndex.Row] = []
        var movements: [Movement] = [], trials: [Trial] = [], charges: [Charge] = [], refunds: [Refund] = []
        var customers: [Customer] = [], cohortMoney: [CohortMoney] = [], activity: [Activity] = []
        for f in all.sorted(by: { $0.user < $1.user }) {
            let u = Int32(users.count)
            users.append(f.user)
            userCount = users.count
            if let t = f.firstSeen { firstEvent = min(firstEvent ?? t, t) }
            for m in f.movements {
                movements.append(Movement(time: m.time.nanoseconds, kind: m.kind, currency: intern(m.currency), mrr: m.mrr, user: u, seg: seg(m.segments)))
            }
            if let t = f.trial {
                trials.append(Trial(start: t.start.nanoseconds, convertedAt: t.convertedAt?.nanoseconds ?? Self.never,
                                    abandonedAt: t.abandonedAt?.nanoseconds ?? Self.never, seg: seg(t.segments)))
            }
            let customerSeg = seg(f.customerSegments)
            let seen = f.firstSeen?.nanoseconds ?? Self.never
            for c in f.charges {
                let cur = intern(c.currency)
                charges.append(Charge(time: c.time.nanoseconds, user: u, currency: cur, micros: c.micros, seg: seg(c.segments)))
                cohortMoney.append(CohortMoney(firstSeen: seen, time: c.time.nanoseconds, currency: cur, micros: c.micros, seg: customerSeg))
            }
            for r in f.refunds {
                let cur = intern(r.currency)
                refunds.append(Refund(time: r.time.nanoseconds, chargeTime: r.chargeTime.nanoseconds, currency: cur, micros: r.micros, sign: r.sign, seg: seg(r.segments)))
                let signed = r.sign > 0 ? 0 &- r.micros : r.micros
                cohortMoney.append(CohortMoney(firstSeen: seen, time: r.time.nanoseconds, currency: cur, micros: signed, seg: customerSeg))
            }
            if f.firstSeen != nil {
                customers.append(Customer(firstSeen: seen, firstConversion: f.firstConversion?.nanoseconds ?? Self.never,
                                          firstPaid: f.firstPaid?.nanoseconds ?? Self.never, user: u, seg: customerSeg))
            }
            for d in f.activeDays { activity.append(Activity(day: d, user: u)) }
            for (i, s) in f.spans.enumerated() {
                // Spans name their product and tier by id in the stored model.
                _ = intern(s.tier)
                if let p = s.product { _ = intern(p) }
                let end = i + 1 < f.spans.count ? f.spans[i + 1].start.nanoseconds : Self.never
                spanRows.append(SpanIndex.Row(span: s, end: end, user: u))
            }
        }
        movements.sort { $0.time < $1.time }
        trials.sort { $0.start < $1.start }
        charges.sort { $0.time < $1.time }
        refunds.sort { $0.chargeTime < $1.chargeTime }
        customers.sort { $0.firstSeen < $1.firstSeen }
        cohortMoney.sort { $0.firstSeen < $1.firstSeen }
        activity.sort { $0.day < $1.day }
        (self.movements, self.trials, self.charges, self.refunds) = (FixedColumn(movements), FixedColumn(trials), FixedColumn(charges), FixedColumn(refunds))
        (self.customers, self.cohortMoney, self.activity) = (FixedColumn(customers), FixedColumn(cohortMoney), FixedColumn(activity))
        spans = SpanIndex(spanRows)
    }

    /// The first index of `array` whose key is at or after `t` (the array sorted by that key).
    static func lowerBound<C: RandomAccessCollection<T>, T>(_ array: C, _ t: Int64, _ key: (T) -> Int64) -> Int where C.Index == Int {
        var lo = 0, hi = array.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if key(array[mid]) < t { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
