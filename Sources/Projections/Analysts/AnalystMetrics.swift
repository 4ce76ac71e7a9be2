import SubscriptionDomain

/// The analysts' metrics of one window (and one segment value, or all), as docs/rules.md
/// defines them ("Analysts' metrics"): flows within the window `[from, to)`, stocks at `to`,
/// cohorts (trials, new customers) started within it with their outcomes as known at `asOf`.
public struct AnalystMetrics: Sendable, Equatable {
    /// Active Subscriptions Movement: paid subscriptions that became active for the user's first
    /// time, again after a churn, or stopped being active, within the window; `active` at its end.
    public var newSubscriptions = 0
    public var resubscribed = 0
    public var churned = 0
    public var active = 0

    /// MRR Movement in one currency: the window's movements and the MRR at its end.
    public struct MRR: Sendable, Equatable {
        public var new = Money.zero
        public var resubscription = Money.zero
        public var expansion = Money.zero
        public var contraction = Money.zero
        public var churned = Money.zero
        public var mrr = Money.zero
        /// new + resubscription + expansion − contraction − churned.
        public var net: Money { new + resubscription + expansion - contraction - churned }
        /// 12 × MRR at the window's end.
        public var arr: Money { Money(micros: mrr.micros.multipliedSaturated(by: 12)) }
    }
    public var mrr: [String: MRR] = [:]

    /// Refund Rate: paid transactions charged within the window, and how many of them were
    /// refunded as known at `asOf` (a reversal takes one back).
    public var paidTransactions = 0
    public var refundedTransactions = 0
    public var refundRate: Double { paidTransactions == 0 ? 0 : Double(refundedTransactions) / Double(paidTransactions) }

    /// Trial Conversion of the trials started within the window, as known at `asOf`.
    public var trialsStarted = 0
    public var trialsConverted = 0
    public var trialsPending = 0
    public var trialsAbandoned = 0
    public var trialConversionRate: Double { trialsStarted == 0 ? 0 : Double(trialsConverted) / Double(trialsStarted) }

    /// Of the customers first seen within the window: those who started a trial or paid
    /// (initial conversion) and those who paid (conversion to paying) within `within` of first
    /// being seen, as known at `asOf`.
    public var newCustomers = 0
    public var initialConversions = 0
    public var payingConversions = 0
    public var initialConversionRate: Double { newCustomers == 0 ? 0 : Double(initialConversions) / Double(newCustomers) }
    public var conversionToPayingRate: Double { newCustomers == 0 ? 0 : Double(payingConversions) / Double(newCustomers) }

    /// Realized LTV of the customers first seen within the window: their revenue (charges less
    /// refunds) within `lifetime` of first being seen, as known at `asOf`, per currency; the
    /// customers (`newCustomers`) and those of them who paid within the lifetime.
    public var lifetimeRevenue: [String: Money] = [:]
    public var lifetimePayingCustomers = 0

    /// ARPU and ARPPU: the window's revenue (charges within it, less their refunds known at
    /// `asOf`), the customers with an event on a day of the window, and those who paid within it.
    public var revenue: [String: Money] = [:]
    public var activeCustomers = 0
    public var payingCustomers = 0

    public init() {}

    /// `money` ÷ `n` (zero when `n` is zero), to the micro, rounded half away from zero.
    public static func perCustomer(_ money: Money, _ n: Int) -> Money {
        guard n > 0 else { return .zero }
        return money.scaled(by: 1, over: Int64(n))
    }
}

extension AnalystMetrics {
    /// The metrics of two partitions of one ledger (disjoint users) as one: every count and sum added.
    public func adding(_ o: AnalystMetrics) -> AnalystMetrics {
        var r = self
        r.newSubscriptions += o.newSubscriptions
        r.resubscribed += o.resubscribed
        r.churned += o.churned
        r.active += o.active
        for (c, m) in o.mrr {
            var x = r.mrr[c] ?? MRR()
            x.new += m.new
            x.resubscription += m.resubscription
            x.expansion += m.expansion
            x.contraction += m.contraction
            x.churned += m.churned
            x.mrr += m.mrr
            r.mrr[c] = x
        }
        r.paidTransactions += o.paidTransactions
        r.refundedTransactions += o.refundedTransactions
        r.trialsStarted += o.trialsStarted
        r.trialsConverted += o.trialsConverted
        r.trialsPending += o.trialsPending
        r.trialsAbandoned += o.trialsAbandoned
        r.newCustomers += o.newCustomers
        r.initialConversions += o.initialConversions
        r.payingConversions += o.payingConversions
        for (c, m) in o.lifetimeRevenue { r.lifetimeRevenue[c, default: .zero] += m }
        r.lifetimePayingCustomers += o.lifetimePayingCustomers
        for (c, m) in o.revenue { r.revenue[c, default: .zero] += m }
        r.activeCustomers += o.activeCustomers
        r.payingCustomers += o.payingCustomers
        return r
    }
}
