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
        /// Users exactly `number` (1…4) funnel steps far, and in the paywall context `name`
        /// (0…4): kept up to format 6 only. The funnel as of an instant is now the window funnel
        /// without a start (`windowFunnel` under `beforeAnyDay`), which follows the same events.
        case reached = 1
        case context = 2
        /// Users who started a trial (kept up to format 9: now the sum of `cohortStarted`), and
        /// those who converted (revenue's terms).
        case trialStarted = 3
        case trialConverted = 4
        /// Users whose first trial started on day `number` (since 1970), and those of them converted.
        case cohortStarted = 5
        case cohortConverted = 6
        /// Money in micros in currency `name`, and the users holding an entry in it.
        case gross = 7, grossHolders = 8
        case refunded = 9, refundedHolders = 10
        case adjustment = 11, adjustmentHolders = 12
        /// Subscriber stocks: active subscriptions beyond those holding MRR (`mrrHolders`, which
        /// the reports add back: mostly none), active trials, churned subscribers.
        case active = 13, trial = 14, churned = 15
        /// Monthly recurring revenue in micros in currency `name`, and the active subscriptions holding it.
        case mrr = 16, mrrHolders = 17
        /// Events that changed the user's gross, refunded or take-home adjustment in currency
        /// `name` (each counted once, as a series' flows see them: a currency appears in a window's
        /// revenue when one of them falls in it, even if the changes add up to nothing).
        case grossChanges = 18, refundedChanges = 19, adjustmentChanges = 20
        /// Users whose first trial, started on day `number`, converted at the very instant it started.
        case cohortSameInstant = 21
        /// A window's funnel (`WindowSteps`): `number` packs (window day, first view day, steps
        /// reached); `name` is the paywall context (empty: overall, less the users' contexts exactly
        /// as far, `FunnelProgress.beyondContexts`: a user with one context, as far in it as overall,
        /// as most are, holds no overall key; the reports add the contexts back). See `WindowSteps`.
        case windowFunnel = 22
        /// Retention of a paid period's cohort (the series' cohorts): `number` packs (window day,
        /// day of the paid start, period); subscribers with period 0. A user's first paid start is
        /// kept under window day `beforeAnyDay` (a series without a start); each later one on a
        /// later day under the day of the paid start before it (a series from a day after that one
        /// and not after its own: `WindowSteps`).
        case retentionSubscribers = 23, retentionMeasured = 24, retentionKept = 25
        /// Entries of the notification schedule: `number` is kind × 3 + status (`TimeKey.notification`);
        /// and those in-app only, `number` the kind (0: trial ending, 1: payment failed).
        case notifications = 26, notificationsInApp = 27
        /// The funnel cohorts of a series with a start (`WindowSteps`): packed as `windowFunnel`,
        /// each chain after the first kept by its first view day under the window day before it
        /// (+), and a chain whose first view is on a later day than its start also taken out under
        /// its own window day (−). Only keys with a view day after their window day are kept.
        case cohortFunnel = 28
        /// The paid starts of a retention cohort by when their checks fall due: `number` packs
        /// (window day, day of the paid start, billing months), each start kept at its instant
        /// plus the unverified grace. Check n of a start is that instant shifted by n periods
        /// (`retentionShift`), so the checks measured as of T are these keys' sums as of T less
        /// each period's shift, and are not kept one by one (`retentionMeasured` holds only those
        /// of starts whose checks do not shift so: see `WindowSteps`).
        case retentionDue = 29
    }

    /// The notification kinds and statuses in the order `notifications` keys number them.
    package static let notificationKinds: [ScheduledNotification.Kind] = [.trialEnding, .paymentFailed]
    package static let notificationStatuses: [ScheduledNotification.Status] = [.scheduled, .due, .cancelled]

    /// The key of the schedule's entries of `kind` in `status`.
    static func notification(_ kind: ScheduledNotification.Kind, _ status: ScheduledNotification.Status) -> TimeKey {
        TimeKey(kind: .notifications, number: Int64(notificationKinds.firstIndex(of: kind)! * 3 + notificationStatuses.firstIndex(of: status)!))
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

    /// The window day of a window's first chain (every window start before the user's first funnel event).
    package static let beforeAnyDay: Int64 = -dayLimit - 1
    /// The first view day of a funnel that reached no step (a series does not count it).
    package static let noViewDay: Int64 = dayLimit + 1
    private static let dayBias: Int64 = 1 << 17
    /// A `windowFunnel` key's count for a paywall context: this plus the steps reached (0…4); overall: the steps (1…4).
    package static let contextStep = 8

    /// `number` of a `windowFunnel` or retention key: two days (each within ±`dayLimit` + 1) and a small count (0…31).
    static func pack(_ day: Int64, _ other: Int64, _ small: Int) -> Int64 {
        (day + dayBias) << 24 | (other + dayBias) << 5 | Int64(small)
    }

    /// How far check `period` of a paid start on `day` with a billing period of `months` months
    /// falls after the start (ns): the same for every instant of the day, as `Timestamp.addMonths`
    /// keeps the time of day; nil when the shifted day is out of the timestamps' range.
    package static func retentionShift(paidDay day: Int64, months: Int, period: Int) -> Int64? {
        RetentionShifts(paidDay: day).shift(months: months, period: period)
    }

    /// `retentionShift` of the periods of one paid day, its date taken apart once.
    package struct RetentionShifts {
        /// The day's midnight (nil: the day is out of range) and its date.
        private let midnight: Timestamp?
        private let date: Timestamp.MonthSteps

        package init(paidDay day: Int64) {
            let inRange = abs(day) <= TimeKey.dayLimit
            let midnight = Timestamp(nanoseconds: inRange ? day * 86_400_000_000_000 : 0)
            self.midnight = inRange ? midnight : nil
            date = Timestamp.MonthSteps(midnight)
        }

        /// `TimeKey.retentionShift(paidDay:months:period:)` of this day.
        package func shift(months: Int, period: Int) -> Int64? {
            guard let midnight else { return nil }
            let due = date.adding(period * months)
            guard due.nanoseconds != .max, due.nanoseconds != .min else { return nil }
            let (shift, overflow) = due.nanoseconds.subtractingReportingOverflow(midnight.nanoseconds)
            return overflow ? nil : shift
        }
    }

    /// The parts of a packed `number`: (day, other day, small count).
    package var unpacked: (day: Int64, other: Int64, small: Int) {
        ((number >> 24) - Self.dayBias, ((number >> 5) & ((1 << 19) - 1)) - Self.dayBias, Int(number & 31))
    }

    /// Whether a packed `number` is one `pack` makes from days in range and a count up to `limit`.
    private func packedValid(limit: Int) -> Bool {
        let (d, o, s) = unpacked
        return number >= 0 && Self.pack(d, o, s) == number && abs(d) <= Self.dayLimit + 1 && abs(o) <= Self.dayLimit + 1 && s <= limit
    }

    /// Whether the key is one a build can make (a forged file's keys are refused at reading).
    package var isValid: Bool {
        switch kind {
        case .metric: return number >= 0 && number < Int64(Metric.all.count) && name.isEmpty
        case .reached, .context: return false   // (no longer kept)
        case .cohortStarted, .cohortConverted: return abs(number) <= Self.dayLimit && name.isEmpty
        case .gross, .grossHolders, .refunded, .refundedHolders, .adjustment, .adjustmentHolders, .mrr, .mrrHolders:
            return number == 0
        case .trialConverted, .active, .trial, .churned: return number == 0 && name.isEmpty
        case .trialStarted: return false   // (no longer kept)
        case .grossChanges, .refundedChanges, .adjustmentChanges: return number == 0
        case .cohortSameInstant: return abs(number) <= Self.dayLimit && name.isEmpty
        case .windowFunnel, .cohortFunnel:
            let (windowDay, viewDay, steps) = unpacked
            // A cohort key has a view day after its window day (no other is ever summed, none is kept).
            return packedValid(limit: Self.contextStep + FunnelProgress.steps.count)
                && (name.isEmpty && steps >= 1 && steps <= FunnelProgress.steps.count || steps >= Self.contextStep)
                && (kind == .windowFunnel || viewDay != Self.noViewDay && viewDay > windowDay)
        case .notifications: return number >= 0 && number < 6 && name.isEmpty
        case .notificationsInApp: return number >= 0 && number < 2 && name.isEmpty
        case .retentionSubscribers, .retentionMeasured, .retentionKept:
            // Under "before any" window day, or the day of an earlier paid start.
            return packedValid(limit: LedgerSeries.retentionPeriods) && name.isEmpty && unpacked.day < unpacked.other
        case .retentionDue:
            return packedValid(limit: 31) && name.isEmpty && unpacked.day < unpacked.other && unpacked.small >= 1
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
