import SubscriptionDomain

/// One figure of the reports that a user's contribution adds to, as the time index keeps it: a
/// metric count, a funnel step reached (overall or in a paywall context), a trial cohort day, a
/// sum of money or its holders in one currency, or a subscriber stock. The index keeps, per key,
/// the sum over users as a step function of the instant (TimeIndex.swift).
package struct TimeKey: Hashable, Comparable, Sendable {
    /// What the key counts. The raw values are stored in the time index file: never renumber.
    package enum Kind: UInt8, Sendable, CaseIterable {
        /// `number`: the metric's slot (`Metric.slot`).
        case metric = 0
        /// Users exactly `number` (1…4) funnel steps far.
        case reached = 1
        /// Users exactly `number` (0…4) steps far in the paywall context `name`.
        case context = 2
        /// Users who started a trial, and those who converted (revenue's terms).
        case trialStarted = 3
        case trialConverted = 4
        /// Users whose first trial started on day `number` (since 1970), and those of them converted.
        case cohortStarted = 5
        case cohortConverted = 6
        /// Money in micros in currency `name`, and the users holding an entry in it.
        case gross = 7, grossHolders = 8
        case refunded = 9, refundedHolders = 10
        case adjustment = 11, adjustmentHolders = 12
        /// Subscriber stocks: active subscriptions, active trials, churned subscribers.
        case active = 13, trial = 14, churned = 15
        /// Monthly recurring revenue in micros in currency `name`, and the active subscriptions holding it.
        case mrr = 16, mrrHolders = 17
    }

    package var kind: Kind
    package var number: Int64 = 0
    package var name: String = ""

    /// The largest day number a trial cohort may have: the last whole day a `Timestamp` holds.
    static let dayLimit: Int64 = 106_751

    package static func < (a: TimeKey, b: TimeKey) -> Bool {
        if a.kind != b.kind { return a.kind.rawValue < b.kind.rawValue }
        if a.number != b.number { return a.number < b.number }
        return a.name < b.name
    }

    /// Whether the key is one a build can make (a forged file's keys are refused at reading).
    package var isValid: Bool {
        switch kind {
        case .metric: return number >= 0 && number < Int64(Metric.all.count) && name.isEmpty
        case .reached: return number >= 1 && number <= Int64(FunnelProgress.steps.count) && name.isEmpty
        case .context: return number >= 0 && number <= Int64(FunnelProgress.steps.count)
        case .cohortStarted, .cohortConverted: return abs(number) <= Self.dayLimit && name.isEmpty
        case .gross, .grossHolders, .refunded, .refundedHolders, .adjustment, .adjustmentHolders, .mrr, .mrrHolders:
            return number == 0
        case .trialStarted, .trialConverted, .active, .trial, .churned: return number == 0 && name.isEmpty
        }
    }

    /// Whether the key's sum is money (micros): exact only while the index's money magnitude allows it.
    package var isMoney: Bool { kind == .gross || kind == .refunded || kind == .adjustment || kind == .mrr }

    package init(kind: Kind, number: Int64 = 0, name: String = "") {
        self.kind = kind
        self.number = number
        self.name = name
    }
}
