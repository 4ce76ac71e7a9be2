import Projections
import SubscriptionDomain

// The reports from the summary's sums: the same values a snapshot's `counts()`, `funnel()`,
// `revenue()` and `notifications()` compute from every fold (LedgerSnapshot, FunnelReport.swift,
// RevenueReport.swift), with the default options (no window, sandbox apart).

extension ReportSummary {
    /// Analytics counts: every metric of CONTRACT.md §3.
    public func counts() -> [String: Int] {
        var out: [String: Int] = [:]
        for m in Metric.all { out[m.name] = Int(truncatingIfNeeded: metricCounts[m.slot]) }
        return out
    }

    /// The funnel over the whole log.
    public func funnel() -> FunnelReport {
        var cohorts: [String: (Int, Int)] = [:]
        for (day, d) in days {
            let week = LedgerSnapshot.weekStart(Timestamp(seconds: day * 86_400))
            // Wrapping: a day's counts are bounded at reading, their sum over days is not.
            cohorts[week, default: (0, 0)].0 &+= d.started
            cohorts[week, default: (0, 0)].1 &+= d.converted
        }
        let cohortList = cohorts.map { FunnelReport.Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week }
        return FunnelReport(
            steps: FunnelReport.steps(reached),
            byContext: contexts.mapValues { FunnelReport.steps($0) },
            trialsStarted: cohortList.reduce(0) { $0 &+ $1.started },
            trialsConverted: cohortList.reduce(0) { $0 &+ $1.converted },
            cohorts: cohortList)
    }

    /// Revenue as of the instant; nil when a sum of money may have saturated in a snapshot's
    /// order of summing (the caller folds as before).
    public func revenue(profile: Profile) -> RevenueReport? {
        guard isExact else { return nil }
        func money(_ s: MoneySum?) -> Money { Money(micros: s.map { Int64($0.sum) } ?? 0) }
        let currencies = Set(gross.keys).union(refunded.keys).union(mrr.keys).sorted()
        let lines = currencies.map { c in
            RevenueReport.line(currency: c, gross: money(gross[c]), refunded: money(refunded[c]), mrr: money(mrr[c]),
                               commissionPercent: profile.commissionPercent, adjustment: money(adjustment[c]))
        }
        return RevenueReport(
            lines: lines, activeSubscriptions: active, activeTrials: trials, churnedSubscribers: churned,
            churnRate: Rates.churn(churned: churned, active: active),
            trialConversionRate: Rates.trialConversion(started: trialsStarted, converted: trialsConverted),
            trialsStarted: trialsStarted, trialsConverted: trialsConverted, commissionPercent: profile.commissionPercent,
            takehomeAdjustments: adjustment.mapValues { money($0) })
    }

    /// The notification schedule as of `instant`, in schedule order. At or after the summary's
    /// instant (once it is brought there) the entries are as kept, their statuses given at
    /// `instant`; before it, each entry is as the fold up to `instant` held it
    /// (`NotificationEntry.asOf`: scheduled by then, dropped by then, its channel then), which is
    /// a fold's schedule as of that instant without folding.
    public func notifications(at instant: Timestamp, profile: Profile) -> [ScheduledNotification] {
        let texts = NotificationTexts(profile)
        let past = instant < self.instant
        return schedule.compactMap { n in
            guard let entry = past ? n.entry.asOf(instant) : n.entry else { return nil }
            let trial = entry.kind == .trialEnding
            return ScheduledNotification(
                user: n.user, kind: entry.kind, fireAt: entry.fireAt,
                deepLink: trial ? texts.trialEndingLink : texts.paymentFailedLink,
                copy: trial ? texts.trialEndingCopy : texts.paymentFailedCopy,
                channels: entry.inAppOnly ? NotificationTexts.inAppOnly : NotificationTexts.pushAndInApp,
                status: entry.cancelled ? .cancelled : (entry.fireAt <= instant ? .due : .scheduled))
        }
    }
}
