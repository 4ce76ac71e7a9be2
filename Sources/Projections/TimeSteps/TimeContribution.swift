import SubscriptionDomain

/// What one user adds to every report figure as of one instant: the terms `counts()`,
/// `funnel()` and `revenue()` of a snapshot take from the user's fold, and the stocks of their
/// state (with what was transferred to them) at the instant. The time index keeps the
/// differences between a user's successive contributions (`difference(to:_:)`).
struct TimeContribution: Sendable, Equatable {
    var counts = MetricCounts()
    var reached: UInt8 = 0
    var contexts: [FunnelProgress.ContextProgress] = []
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
        reached = fold.funnel.reached
        contexts = fold.funnel.byContext
        trialDay = fold.trialStartedAt.map { ($0.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400) }
        trialConverted = fold.trialConverted
        gross = fold.books.gross
        refunded = fold.books.refunded
        adjustment = fold.books.takehomeAdjustment
        stock = SubscriberStock.of(state, books: fold.books, decider: decider, at: instant)
    }

    /// Calls `emit` with each key's change from `self` to `new` (new minus old; wrapping), once per
    /// key that changed: what both hold alike gives nothing.
    func difference(to new: TimeContribution, _ emit: (TimeKey, Int64) -> Void) {
        if counts != new.counts {
            for slot in 0..<Metric.all.count where counts[slot: slot] != new.counts[slot: slot] {
                emit(TimeKey(kind: .metric, number: Int64(slot)), Int64(new.counts[slot: slot]) &- Int64(counts[slot: slot]))
            }
        }
        if reached != new.reached {
            if reached > 0 { emit(TimeKey(kind: .reached, number: Int64(reached)), -1) }
            if new.reached > 0 { emit(TimeKey(kind: .reached, number: Int64(new.reached)), 1) }
        }
        if contexts != new.contexts {
            // Only the entries that changed: an entry in both lists adds nothing.
            var kept = Kept(count: new.contexts.count)
            for p in contexts {
                if let i = new.contexts.indices.first(where: { !kept[$0] && new.contexts[$0] == p }) {
                    kept.set(i)
                } else {
                    emit(TimeKey(kind: .context, number: Int64(p.reached), name: p.context), -1)
                }
            }
            for (i, p) in new.contexts.enumerated() where !kept[i] {
                emit(TimeKey(kind: .context, number: Int64(p.reached), name: p.context), 1)
            }
        }
        if trialDay != new.trialDay || trialConverted != new.trialConverted {
            Self.trialTerms(trialDay, trialConverted) { emit($0, -1) }
            Self.trialTerms(new.trialDay, new.trialConverted) { emit($0, 1) }
        }
        Self.money(gross, new.gross, .gross, .grossHolders, emit)
        Self.money(refunded, new.refunded, .refunded, .refundedHolders, emit)
        Self.money(adjustment, new.adjustment, .adjustment, .adjustmentHolders, emit)
        if stock != new.stock {
            if stock.active != new.stock.active { emit(TimeKey(kind: .active), Int64(new.stock.active) &- Int64(stock.active)) }
            if stock.trial != new.stock.trial { emit(TimeKey(kind: .trial), Int64(new.stock.trial) &- Int64(stock.trial)) }
            if stock.churned != new.stock.churned { emit(TimeKey(kind: .churned), Int64(new.stock.churned) &- Int64(stock.churned)) }
            let old = stock.holdsMRR ? stock : nil, now = new.stock.holdsMRR ? new.stock : nil
            if let old, let now, old.currency == now.currency {
                // (An MRR is never negative, `SubscriberStock.of`: the difference of two cannot wrap.)
                if old.mrr != now.mrr { emit(TimeKey(kind: .mrr, name: now.currency), now.mrr.micros &- old.mrr.micros) }
            } else {
                if let old {
                    emit(TimeKey(kind: .mrr, name: old.currency), 0 &- old.mrr.micros)
                    emit(TimeKey(kind: .mrrHolders, name: old.currency), -1)
                }
                if let now {
                    emit(TimeKey(kind: .mrr, name: now.currency), now.mrr.micros)
                    emit(TimeKey(kind: .mrrHolders, name: now.currency), 1)
                }
            }
        }
    }

    private static func trialTerms(_ day: Int64?, _ converted: Bool, _ emit: (TimeKey) -> Void) {
        if converted { emit(TimeKey(kind: .trialConverted)) }
        guard let day else { return }
        emit(TimeKey(kind: .trialStarted))
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
