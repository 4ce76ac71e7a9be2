import SubscriptionDomain

/// What one UTC day adds to a series, gathered by `SeriesReplay` in its one pass and summed into
/// buckets of any width afterwards (`SeriesTotals.series(by:)`). Flows are keyed by the day they
/// happened; stock changes by the first midnight at or after the change (or the window's end).
package struct SeriesDay: Sendable {
    /// Events counted on the day, one slot per `Metric`.
    var counts = [Int](repeating: 0, count: Metric.all.count)
    var gross = FewKeys<Money>()
    var refunded = FewKeys<Money>()
    var takehomeAdjustment = FewKeys<Money>()
    /// Changes of the stocks taking effect by this key's instant.
    var activeDelta = 0
    var trialDelta = 0
    var churnedDelta = 0
    var mrrDelta = FewKeys<Money>()
    /// The funnel of the users whose first paywall view in the window fell on this day: how many got exactly k steps far.
    var reached = [Int](repeating: 0, count: FunnelProgress.steps.count + 1)
    var contexts = FewKeys<[Int]>()
    /// Trials started on this day, and how many of them converted by the instant.
    var trialsStarted = 0
    var trialsConverted = 0
    /// Users whose first paid period started on this day, and per period n (index n − 1): how
    /// many had n periods behind them by the instant (measured), and of those how many were still subscribed.
    var subscribers = 0
    var retentionMeasured = [Int](repeating: 0, count: LedgerSeries.retentionPeriods)
    var retentionKept = [Int](repeating: 0, count: LedgerSeries.retentionPeriods)

    package mutating func add(_ o: SeriesDay) {
        for i in counts.indices { counts[i] += o.counts[i] }
        for (k, v) in zip(o.gross.keys, o.gross.values) { gross[k, default: .zero] += v }
        for (k, v) in zip(o.refunded.keys, o.refunded.values) { refunded[k, default: .zero] += v }
        for (k, v) in zip(o.takehomeAdjustment.keys, o.takehomeAdjustment.values) { takehomeAdjustment[k, default: .zero] += v }
        activeDelta += o.activeDelta
        trialDelta += o.trialDelta
        churnedDelta += o.churnedDelta
        for (k, v) in zip(o.mrrDelta.keys, o.mrrDelta.values) { mrrDelta[k, default: .zero] += v }
        for i in reached.indices { reached[i] += o.reached[i] }
        for (k, v) in zip(o.contexts.keys, o.contexts.values) {
            contexts[k, default: [Int](repeating: 0, count: reached.count)] = zip(contexts[k, default: [Int](repeating: 0, count: reached.count)], v).map { $0 + $1 }
        }
        trialsStarted += o.trialsStarted
        trialsConverted += o.trialsConverted
        subscribers += o.subscribers
        for i in retentionMeasured.indices {
            retentionMeasured[i] += o.retentionMeasured[i]
            retentionKept[i] += o.retentionKept[i]
        }
    }

    package init() {
    }
}
