import SubscriptionDomain

extension AnalystModel {
    /// The users `filter` keeps as of `instant`, in user id order, after `after` (paging), at most
    /// `limit`; and whether more follow. Read from the spans of the instant's epoch (or, with
    /// `churnedSince`, from the churn movements since then), not from every user, unless the filter
    /// names no access state (trial, pro, pro_grace).
    public func customers(at instant: Timestamp, where filter: CustomerFilter, after: String? = nil, limit: Int = .max) -> (rows: [CustomerRow], more: Bool) {
        precondition(parts != .metrics, "a model read for metrics holds no customer lists")
        let t = instant.nanoseconds
        var candidates: [Int] = []
        var churnTimes: [Int: Int64] = [:]
        if let since = filter.churnedSince {
            // The users whose last start or churn by the instant is a churn at or after `since`.
            var last: [Int32: (AnalystFacts.Movement.Kind, Int64)] = [:]
            var m = Self.lowerBound(movements, since.nanoseconds) { $0.time }
            while m < movements.count, movements[m].time <= t {
                let k = movements[m].kind
                if k == .churned || k == .new || k == .resubscribed { last[movements[m].user] = (k, movements[m].time) }
                m += 1
            }
            for (u, k) in last where k.0 == .churned {
                if let r = spans.row(of: u, at: t) { candidates.append(r); churnTimes[r] = k.1 }
            }
        } else {
            var states = PlanState.allCases
            if let s = filter.planState { states = [s] }
            if filter.trialEndsBefore != nil { states = states.filter { $0 == .trial } }
            if filter.graceReason != nil { states = states.filter { $0 == .proGrace } }
            candidates = spans.rows(at: t, states: states)
        }
        var rows: [CustomerRow] = []
        for i in candidates {
            let r = spans.rows[i]
            let s = r.span
            if let v = filter.planState, s.planState != v { continue }
            if let v = filter.graceReason, s.graceReason != v { continue }
            if let v = filter.billingIssue, s.billingIssue != v { continue }
            if let v = filter.autoRenew, s.autoRenew != v { continue }
            if let v = filter.trialEndsBefore, s.planState != .trial || !(s.expiresAt.map { $0 < v } ?? false) { continue }
            if let v = filter.product, s.product != v { continue }
            if let v = filter.tier, s.tier != v { continue }
            let user = users[Int(r.user)]
            if let after, user <= after { continue }
            rows.append(CustomerRow(user: user, planState: s.planState, graceReason: s.graceReason, graceEndsAt: s.graceEndsAt, product: s.product,
                                    tier: s.tier, expiresAt: s.expiresAt, autoRenew: s.autoRenew, billingIssue: s.billingIssue,
                                    churnedAt: churnTimes[i].map { Timestamp(nanoseconds: $0) }))
        }
        rows.sort { $0.user < $1.user }
        let more = rows.count > limit
        if more { rows.removeLast(rows.count - limit) }
        return (rows, more)
    }

    /// The id of `user` (users are sorted).
    func userIndex(_ user: String) -> Int32? {
        var lo = 0, hi = users.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if users[mid] < user { lo = mid + 1 } else { hi = mid }
        }
        return lo < users.count && users[lo] == user ? Int32(lo) : nil
    }
}
