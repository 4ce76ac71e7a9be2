import SubscriptionDomain

/// What one user adds to every report figure as of one instant: the terms `counts()`,
/// `funnel()` (its trials) and `revenue()` of a snapshot take from the user's fold, and the stocks
/// of their state (with what was transferred to them) at the instant. The time index keeps the
/// differences between a user's successive contributions (`update(to:state:decider:at:_:)`). The
/// funnel's steps are not here: as of an instant they are the window funnel without a start
/// (`WindowSteps`, the first chain), which follows the same funnel events.
struct TimeContribution: Sendable, Equatable {
    var counts = MetricCounts()
    /// The day (since 1970) the user's first trial started.
    var trialDay: Int64?
    var trialConverted = false
    var gross: [UserBooks.Amount] = []
    var refunded: [UserBooks.Amount] = []
    var adjustment: [UserBooks.Amount] = []
    var stock = SubscriberStock.none

    init() {}

    /// The contribution of `fold` whose effective state (its own, with the subscriptions handed
    /// to the user by then) is `state`, as of `instant`.
    init(_ fold: borrowing UserFold, state: borrowing SubscriberState, decider: PlanDecider, at instant: Timestamp) {
        counts = fold.counts
        trialDay = fold.trialStartedAt.map { ($0.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400) }
        trialConverted = fold.trialConverted
        gross = fold.books.gross
        refunded = fold.books.refunded
        adjustment = fold.books.takehomeAdjustment
        stock = SubscriberStock.of(state, books: fold.books, decider: decider, at: instant)
    }

    /// Calls `emit` with each key's change from `self` to `new` (new minus old; wrapping), once per
    /// key that changed: what both hold alike gives nothing. (A walk brings its contribution up in
    /// place with `update`; this gives the same terms between two built ones, which tests hold `update` to.)
    func difference(to new: TimeContribution, _ emit: (TimeKey, Int64) -> Void) {
        Self.counts(counts, new.counts, emit)
        Self.trial(trialDay, trialConverted, new.trialDay, new.trialConverted, emit)
        Self.money(gross, new.gross, .gross, .grossHolders, emit)
        Self.money(refunded, new.refunded, .refunded, .refundedHolders, emit)
        Self.money(adjustment, new.adjustment, .adjustment, .adjustmentHolders, emit)
        Self.stock(stock, new.stock, emit)
    }

    /// Becomes the contribution of `fold` (its effective state `state`) as of `instant`, calling
    /// `emit` with each key's change as `difference(to:)` gives it, without building the new
    /// contribution beside this one (a walk samples every user at every instant). (Inlined: a call
    /// copied the whole fold for it.)
    @inline(__always)
    mutating func update(to fold: borrowing UserFold, state: borrowing SubscriberState, decider: PlanDecider, at instant: Timestamp,
                         _ emit: (TimeKey, Int64) -> Void) {
        if counts != fold.counts {
            Self.counts(counts, fold.counts, emit)
            counts = fold.counts
        }
        let day = fold.trialStartedAt.map { ($0.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400) }
        if trialDay != day || trialConverted != fold.trialConverted {
            Self.trial(trialDay, trialConverted, day, fold.trialConverted, emit)
            (trialDay, trialConverted) = (day, fold.trialConverted)
        }
        if gross != fold.books.gross {
            Self.money(gross, fold.books.gross, .gross, .grossHolders, emit)
            gross = fold.books.gross
        }
        if refunded != fold.books.refunded {
            Self.money(refunded, fold.books.refunded, .refunded, .refundedHolders, emit)
            refunded = fold.books.refunded
        }
        if adjustment != fold.books.takehomeAdjustment {
            Self.money(adjustment, fold.books.takehomeAdjustment, .adjustment, .adjustmentHolders, emit)
            adjustment = fold.books.takehomeAdjustment
        }
        let now = SubscriberStock.of(state, books: fold.books, decider: decider, at: instant)
        if stock != now {
            Self.stock(stock, now, emit)
            stock = now
        }
    }

    private static func counts(_ old: MetricCounts, _ new: MetricCounts, _ emit: (TimeKey, Int64) -> Void) {
        guard old != new else { return }
        for slot in 0..<Metric.all.count where old[slot: slot] != new[slot: slot] {
            emit(TimeKey(kind: .metric, number: Int64(slot)), Int64(new[slot: slot]) &- Int64(old[slot: slot]))
        }
    }

    private static func trial(_ oldDay: Int64?, _ oldConverted: Bool, _ newDay: Int64?, _ newConverted: Bool,
                              _ emit: (TimeKey, Int64) -> Void) {
        guard oldDay != newDay || oldConverted != newConverted else { return }
        trialTerms(oldDay, oldConverted) { emit($0, -1) }
        trialTerms(newDay, newConverted) { emit($0, 1) }
    }

    private static func stock(_ old: SubscriberStock, _ new: SubscriberStock, _ emit: (TimeKey, Int64) -> Void) {
        guard old != new else { return }
        // Active subscriptions beyond those holding MRR (whose holders the reports add back): mostly none.
        let activeBeyond = { (s: SubscriberStock) in Int64(s.active) - (s.holdsMRR ? 1 : 0) }
        if activeBeyond(old) != activeBeyond(new) { emit(TimeKey(kind: .active), activeBeyond(new) &- activeBeyond(old)) }
        if old.trial != new.trial { emit(TimeKey(kind: .trial), Int64(new.trial) &- Int64(old.trial)) }
        if old.churned != new.churned { emit(TimeKey(kind: .churned), Int64(new.churned) &- Int64(old.churned)) }
        let before = old.holdsMRR ? old : nil, after = new.holdsMRR ? new : nil
        if let before, let after, before.currency == after.currency {
            // (An MRR is never negative, `SubscriberStock.of`: the difference of two cannot wrap.)
            if before.mrr != after.mrr { emit(TimeKey(kind: .mrr, name: after.currency), after.mrr.micros &- before.mrr.micros) }
        } else {
            if let before {
                emit(TimeKey(kind: .mrr, name: before.currency), 0 &- before.mrr.micros)
                emit(TimeKey(kind: .mrrHolders, name: before.currency), -1)
            }
            if let after {
                emit(TimeKey(kind: .mrr, name: after.currency), after.mrr.micros)
                emit(TimeKey(kind: .mrrHolders, name: after.currency), 1)
            }
        }
    }

    private static func trialTerms(_ day: Int64?, _ converted: Bool, _ emit: (TimeKey) -> Void) {
        if converted { emit(TimeKey(kind: .trialConverted)) }
        guard let day else { return }
        // (The trials started are the cohorts' sum: no key of their own, `TimeKey.Kind.trialStarted`.)
        emit(TimeKey(kind: .cohortStarted, number: day))
        if converted { emit(TimeKey(kind: .cohortConverted, number: day)) }
    }

    /// The change of one kind of money (its sums and holders per currency) from `old` to `new`:
    /// a currency in both changes its sum only (by the difference), not its holders.
    private static func money(_ old: [UserBooks.Amount], _ new: [UserBooks.Amount], _ sum: TimeKey.Kind, _ holders: TimeKey.Kind,
                              _ emit: (TimeKey, Int64) -> Void) {
        guard old != new else { return }
        var kept = Kept(count: new.count)
        for a in old {
            // (A difference past Int64 is given as its two terms, so the index's magnitude counts both.)
            if let i = new.indices.first(where: { !kept[$0] && new[$0].currency == a.currency }),
               case let (d, false) = new[i].money.micros.subtractingReportingOverflow(a.money.micros) {
                kept.set(i)
                if d != 0 { emit(TimeKey(kind: sum, name: a.currency), d) }
            } else {
                emit(TimeKey(kind: sum, name: a.currency), 0 &- a.money.micros)
                emit(TimeKey(kind: holders, name: a.currency), -1)
            }
        }
        for (i, b) in new.enumerated() where !kept[i] {
            emit(TimeKey(kind: sum, name: b.currency), b.money.micros)
            emit(TimeKey(kind: holders, name: b.currency), 1)
        }
    }

    /// Which entries of the new list matched one of the old: bits for the first 64 (a user's
    /// contexts and currencies are a few), a list beyond, so no allocation for the usual lists.
    private struct Kept {
        private var bits: UInt64 = 0
        private var more: [Bool]

        init(count: Int) { more = count > 64 ? [Bool](repeating: false, count: count - 64) : [] }

        subscript(i: Int) -> Bool { i < 64 ? bits & (1 << UInt64(i)) != 0 : more[i - 64] }

        mutating func set(_ i: Int) {
            if i < 64 { bits |= 1 << UInt64(i) } else { more[i - 64] = true }
        }
    }
}
