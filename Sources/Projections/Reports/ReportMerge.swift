import SubscriptionDomain

// Reports of several partition logs (disjoint users) merged into the report one log holding
// them all would give: counts and money summed, rates recomputed from the summed numerators and
// denominators (never averaged), lists merged in the single report's order. Each works on report
// values, so a series of buckets merges bucket by bucket with the same functions.

extension LedgerSnapshot {
    /// Analytics counts of several partitions: each metric summed.
    public static func mergingCounts(_ parts: [[String: Int]]) -> [String: Int] {
        var out: [String: Int] = [:]
        for part in parts { for (k, v) in part { out[k, default: 0] &+= v } }
        return out
    }
}

extension FunnelReport {
    /// The funnel of several partitions: users per step, per context and per cohort summed,
    /// every rate recomputed from the sums.
    public static func merging(_ parts: [FunnelReport]) -> FunnelReport {
        let names = parts.first?.steps.map(\.name) ?? FunnelProgress.steps.map(\.rawValue)
        func summed(_ lists: [[Step]]) -> [Step] {
            var users = Array(repeating: 0, count: names.count)
            for steps in lists { for (i, s) in steps.prefix(names.count).enumerated() { users[i] &+= s.users } }
            return steps(names: names, users: users)
        }
        var contexts: [String: [[Step]]] = [:]
        var cohorts: [String: (Int, Int)] = [:]
        for part in parts {
            for (c, steps) in part.byContext { contexts[c, default: []].append(steps) }
            for c in part.cohorts {
                cohorts[c.week, default: (0, 0)].0 &+= c.started
                cohorts[c.week, default: (0, 0)].1 &+= c.converted
            }
        }
        return FunnelReport(
            steps: summed(parts.map(\.steps)),
            byContext: contexts.mapValues(summed),
            trialsStarted: parts.reduce(0) { $0 &+ $1.trialsStarted },
            trialsConverted: parts.reduce(0) { $0 &+ $1.trialsConverted },
            cohorts: cohorts.map { Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week })
    }
}

extension RevenueReport {
    /// Revenue of several partitions (folded under one profile): money per currency and the
    /// subscriber counts summed; net recomputed from the summed gross, refunds and take-home
    /// adjustments (the commission rounds once, on the total, as one log's report does); churn
    /// and trial conversion rates recomputed from the summed counts.
    public static func merging(_ parts: [RevenueReport]) -> RevenueReport {
        let commission = parts.first?.commissionPercent ?? 0
        var gross: [String: Money] = [:], refunded: [String: Money] = [:], mrr: [String: Money] = [:], adjustments: [String: Money] = [:]
        for part in parts {
            for l in part.lines {
                gross[l.currency, default: .zero] += l.gross
                refunded[l.currency, default: .zero] += l.refunded
                mrr[l.currency, default: .zero] += l.mrr
            }
            for (c, a) in part.takehomeAdjustments { adjustments[c, default: .zero] += a }
        }
        let lines = Set(gross.keys).union(refunded.keys).union(mrr.keys).sorted().map { c in
            line(currency: c, gross: gross[c, default: .zero], refunded: refunded[c, default: .zero], mrr: mrr[c, default: .zero],
                 commissionPercent: commission, adjustment: adjustments[c, default: .zero])
        }
        let active = parts.reduce(0) { $0 &+ $1.activeSubscriptions }, churned = parts.reduce(0) { $0 &+ $1.churnedSubscribers }
        let started = parts.reduce(0) { $0 &+ $1.trialsStarted }, converted = parts.reduce(0) { $0 &+ $1.trialsConverted }
        return RevenueReport(
            lines: lines, activeSubscriptions: active, activeTrials: parts.reduce(0) { $0 &+ $1.activeTrials },
            churnedSubscribers: churned, churnRate: Rates.churn(churned: churned, active: active),
            trialConversionRate: Rates.trialConversion(started: started, converted: converted),
            trialsStarted: started, trialsConverted: converted, commissionPercent: commission, takehomeAdjustments: adjustments)
    }
}

extension ScheduledNotification {
    /// The schedule's order: by fire time, then user, then kind (`payment_failed` first); a
    /// user's own notifications that tie on all three keep the order they were made in.
    public static func inScheduleOrder(_ a: ScheduledNotification, _ b: ScheduledNotification) -> Bool {
        if a.fireAt != b.fireAt { return a.fireAt < b.fireAt }
        if a.user != b.user { return a.user < b.user }
        return a.kind == .paymentFailed && b.kind == .trialEnding
    }

    /// The schedules of several partitions as one, in schedule order. (A user is in one
    /// partition, so entries that tie are one user's, from one list, and keep its order.)
    public static func merging(_ parts: [[ScheduledNotification]]) -> [ScheduledNotification] {
        if parts.count == 1 { return parts[0] }   // already in schedule order
        return parts.flatMap { $0 }.sorted { inScheduleOrder($0, $1) }   // a closure: the comparison inlined (LedgerSnapshot.notifications)
    }
}

extension RuleDiff {
    /// The differences of several partitions as one list, by user (each user is in one partition).
    public static func merging(_ parts: [[PlanDifference]]) -> [PlanDifference] {
        parts.flatMap { $0 }.sorted { $0.user < $1.user }
    }
}

extension LedgerSeries {
    /// The series of several partitions, cut into the same buckets (the same `by`, `from` and
    /// `to`: give every partition's pass the same start): each bucket's counts, revenue, funnel
    /// and retention merged as the plain reports are. Nil when the buckets differ.
    public static func merging(_ parts: [LedgerSeries]) -> LedgerSeries? {
        guard let first = parts.first, parts.allSatisfy({ $0.buckets == first.buckets && $0.rows.count == first.rows.count }) else { return nil }
        if parts.count == 1 { return first }
        let rows = first.rows.indices.map { i in
            let bucket = parts.map { $0.rows[i] }
            return Bucket(start: first.rows[i].start, end: first.rows[i].end,
                          counts: LedgerSnapshot.mergingCounts(bucket.map(\.counts)),
                          revenue: RevenueReport.merging(bucket.map(\.revenue)),
                          funnel: FunnelReport.merging(bucket.map(\.funnel)),
                          retention: Retention.merging(bucket.map(\.retention)))
        }
        return LedgerSeries(buckets: first.buckets, rows: rows)
    }
}

extension LedgerSeries.Retention {
    /// Retention of several partitions' cohorts: subscribers, measured and retained summed per
    /// period, each rate recomputed.
    public static func merging(_ parts: [LedgerSeries.Retention]) -> LedgerSeries.Retention {
        var periods: [Int: (Int, Int)] = [:]
        for part in parts {
            for p in part.periods {
                periods[p.period, default: (0, 0)].0 &+= p.measured
                periods[p.period, default: (0, 0)].1 &+= p.retained
            }
        }
        return LedgerSeries.Retention(
            subscribers: parts.reduce(0) { $0 &+ $1.subscribers },
            periods: periods.filter { $0.value.0 > 0 }.sorted { $0.key < $1.key }.map {
                LedgerSeries.Period(period: $0.key, measured: $0.value.0, retained: $0.value.1, rate: Rates.retention(retained: $0.value.1, measured: $0.value.0))
            })
    }
}

extension NotificationSummary {
    /// The schedule counts of several partitions: summed per kind and status.
    public static func merging(_ parts: [NotificationSummary]) -> NotificationSummary {
        var out = NotificationSummary()
        for part in parts {
            for (kind, statuses) in part.byStatus { for (status, n) in statuses { out.byStatus[kind, default: [:]][status, default: 0] &+= n } }
            for (kind, n) in part.inAppOnly { out.inAppOnly[kind, default: 0] &+= n }
        }
        return out
    }
}
