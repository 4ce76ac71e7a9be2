import EventStore
import SubscriptionDomain

/// The analysts' model of a log as of its head: every user's dated facts (`AnalystFacts`) as
/// columns sorted by the instant they are asked by, so that a metric of a window as of an instant
/// is two binary searches and a read of the facts inside the window (AnalystModel+Metrics.swift),
/// and a customer list as of an instant reads only the plan spans of that instant's epoch
/// (AnalystModel+Users.swift). Strings (users, currencies, segment values) are interned.
public struct AnalystModel: Sendable {
    /// Segment value ids, lane `i` for `Segment.allCases[i]` (lanes 5…7 unused).
    package typealias Seg = SIMD8<Int32>

    package struct Movement: Sendable {
        package var time: Int64
        package var kind: AnalystFacts.Movement.Kind
        package var currency: Int32
        package var mrr: Int64
        package var user: Int32
        package var seg: Seg

        package init(time: Int64, kind: AnalystFacts.Movement.Kind, currency: Int32, mrr: Int64, user: Int32, seg: Seg) {
            self.time = time
            self.kind = kind
            self.currency = currency
            self.mrr = mrr
            self.user = user
            self.seg = seg
        }
    }
    package struct Trial: Sendable {
        package var start: Int64
        package var convertedAt: Int64
        package var abandonedAt: Int64
        package var seg: Seg

        package init(start: Int64, convertedAt: Int64, abandonedAt: Int64, seg: Seg) {
            self.start = start
            self.convertedAt = convertedAt
            self.abandonedAt = abandonedAt
            self.seg = seg
        }
    }
    package struct Charge: Sendable {
        package var time: Int64
        package var user: Int32
        package var currency: Int32
        package var micros: Int64
        package var seg: Seg

        package init(time: Int64, user: Int32, currency: Int32, micros: Int64, seg: Seg) {
            self.time = time
            self.user = user
            self.currency = currency
            self.micros = micros
            self.seg = seg
        }
    }
    package struct Refund: Sendable {
        package var time: Int64
        package var chargeTime: Int64
        package var currency: Int32
        package var micros: Int64
        package var sign: Int8
        package var seg: Seg

        package init(time: Int64, chargeTime: Int64, currency: Int32, micros: Int64, sign: Int8, seg: Seg) {
            self.time = time
            self.chargeTime = chargeTime
            self.currency = currency
            self.micros = micros
            self.sign = sign
            self.seg = seg
        }
    }
    package struct Customer: Sendable {
        package var firstSeen: Int64
        package var firstConversion: Int64
        package var firstPaid: Int64
        package var user: Int32
        package var seg: Seg

        package init(firstSeen: Int64, firstConversion: Int64, firstPaid: Int64, user: Int32, seg: Seg) {
            self.firstSeen = firstSeen
            self.firstConversion = firstConversion
            self.firstPaid = firstPaid
            self.user = user
            self.seg = seg
        }
    }
    /// A charge (positive) or refund (negative) of a customer, by the customer's first-seen instant.
    package struct CohortMoney: Sendable {
        package var firstSeen: Int64
        package var time: Int64
        package var currency: Int32
        package var micros: Int64
        package var seg: Seg

        package init(firstSeen: Int64, time: Int64, currency: Int32, micros: Int64, seg: Seg) {
            self.firstSeen = firstSeen
            self.time = time
            self.currency = currency
            self.micros = micros
            self.seg = seg
        }
    }
    package struct Activity: Sendable {
        package var day: Int64
        package var user: Int32

        package init(day: Int64, user: Int32) {
            self.day = day
            self.user = user
        }
    }

    /// "Never": the instant of a fact that has not happened.
    static let never = Int64.max

    public package(set) var names: [String] = []
    package var ids: [String: Int32] = [:]
    public package(set) var users: [String] = []
    /// The number of users (every user id is below it), also when `users` was not read.
    package var userCount = 0
    // The fact columns, kept in their stored form (`FixedColumn`) and decoded as a query reads them.
    package var movements = FixedColumn<Movement>([])
    package var trials = FixedColumn<Trial>([])
    package var charges = FixedColumn<Charge>([])
    package var refunds = FixedColumn<Refund>([])
    package var customers = FixedColumn<Customer>([])
    package var cohortMoney = FixedColumn<CohortMoney>([])
    package var activity = FixedColumn<Activity>([])
    package var spans: SpanIndex

    /// What the model derives from: the projection fingerprint (profile, rules, fold code) and
    /// the log's head (position and chain hash) it was built at.
    package var fingerprint = ""
    public package(set) var position: UInt64 = 0
    package var hash = EventStore.SHA256.Digest(bytes: [UInt8](repeating: 0, count: 32))

    /// What a model read from its file holds: a query reads only its own sections.
    package enum Parts: Sendable { case all, metrics, customerLists }
    package var parts = Parts.all

    /// The earliest event of the log (a window's default start), if any.
    public package(set) var firstEvent: Timestamp?

    package mutating func intern(_ s: String) -> Int32 {
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
    package init(_ all: [AnalystFacts]) {
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
