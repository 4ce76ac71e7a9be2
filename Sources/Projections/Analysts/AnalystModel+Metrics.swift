import SubscriptionDomain

extension AnalystModel {
    /// The metrics of each window `[bounds[i], bounds[i + 1])` (instants in nanoseconds; a
    /// window's end is excluded, so pass the instant after `asOf` to include it), broken down by
    /// `segment` when given. Cohort outcomes (trials, conversions, refunds, lifetimes) are as
    /// known at `asOf`; stocks (active subscriptions, MRR) are those just before each window's end.
    public func metrics(bounds: [Int64], asOf: Int64, within: Int64, lifetime: Int64, segment: Segment?) -> [AnalystBreakdown] {
        precondition(parts != .customerLists, "a model read for customer lists holds no metrics")
        guard bounds.count >= 2 else { return [] }
        let lane = segment.flatMap { Segment.allCases.firstIndex(of: $0) }
        let windows = bounds.count - 1
        // Per window: slot 0 the total, slot id + 1 the segment value `names[id]` (touched: seen in the window).
        var out = [[AnalystMetrics]](repeating: [AnalystMetrics()], count: windows)
        var touched = [[Bool]](repeating: [], count: windows)
        if lane != nil {
            for w in 0..<windows {
                out[w] = Array(repeating: AnalystMetrics(), count: names.count + 1)
                touched[w] = Array(repeating: false, count: names.count + 1)
            }
        }

        func update(_ w: Int, _ seg: Seg, _ body: (inout AnalystMetrics) -> Void) {
            body(&out[w][0])
            if let lane {
                let k = Int(seg[lane]) + 1
                touched[w][k] = true
                body(&out[w][k])
            }
        }
        func name(_ id: Int32) -> String { names[Int(id)] }

        // Stocks: the movements before the first window, then each window's in turn.
        var stock: [Int32: AnalystMetrics] = [:]
        func moveStock(_ m: Movement) {
            let sign: Int64
            switch m.kind {
            case .new, .resubscribed, .segmentIn: sign = 1
            case .churned, .segmentOut: sign = -1
            case .expansion: sign = 0
            case .contraction: sign = 0
            }
            let mrrSign: Int64 = m.kind == .contraction ? -1 : (m.kind == .expansion ? 1 : sign)
            let c = name(m.currency)
            func add(_ k: Int32) {
                stock[k, default: AnalystMetrics()].active += Int(sign)
                if !c.isEmpty { stock[k, default: AnalystMetrics()].mrr[c, default: .init()].mrr += Money(micros: m.mrr &* mrrSign) }
            }
            // A move between segments cancels in the total.
            if m.kind != .segmentIn && m.kind != .segmentOut { add(-1) }
            if let lane { add(m.seg[lane]) }
        }
        var i = 0
        while i < movements.count, movements[i].time < bounds[0] { moveStock(movements[i]); i += 1 }
        for w in 0..<windows {
            while i < movements.count, movements[i].time < bounds[w + 1] {
                let m = movements[i]
                i += 1
                moveStock(m)
                let c = name(m.currency)
                let money = Money(micros: m.mrr)
                update(w, m.seg) { r in
                    switch m.kind {
                    case .new: r.newSubscriptions += 1; if !c.isEmpty { r.mrr[c, default: .init()].new += money }
                    case .resubscribed: r.resubscribed += 1; if !c.isEmpty { r.mrr[c, default: .init()].resubscription += money }
                    case .churned: r.churned += 1; if !c.isEmpty { r.mrr[c, default: .init()].churned += money }
                    case .expansion: if !c.isEmpty { r.mrr[c, default: .init()].expansion += money }
                    case .contraction: if !c.isEmpty { r.mrr[c, default: .init()].contraction += money }
                    case .segmentIn, .segmentOut: break
                    }
                }
            }
            for (k, s) in stock {
                let slot = Int(k) + 1
                if k >= 0 { touched[w][slot] = true }
                out[w][slot].active = s.active
                for (c, m) in s.mrr { out[w][slot].mrr[c, default: .init()].mrr = m.mrr }
            }
        }

        // The distinct paying and active customers of a window, as bits over the user ids.
        var paying = UserBits(users: userCount), seen = UserBits(users: userCount)
        for w in 0..<windows {
            let lo = bounds[w], hi = bounds[w + 1]
            // Trials started within the window, with their outcome as known at asOf.
            var t = Self.lowerBound(trials, lo) { $0.start }
            while t < trials.count, trials[t].start < hi {
                let trial = trials[t]
                t += 1
                update(w, trial.seg) { r in
                    r.trialsStarted += 1
                    if trial.convertedAt <= asOf { r.trialsConverted += 1 } else if trial.abandonedAt <= asOf { r.trialsAbandoned += 1 } else { r.trialsPending += 1 }
                }
            }
            // Charges within the window: paid transactions, revenue, paying customers.
            paying.removeAll()
            var payingBySeg: [Int32: Set<Int32>] = [:]
            var c = Self.lowerBound(charges, lo) { $0.time }
            while c < charges.count, charges[c].time < hi {
                let ch = charges[c]
                c += 1
                let cur = name(ch.currency)
                update(w, ch.seg) { r in
                    r.paidTransactions += 1
                    r.revenue[cur, default: .zero] += Money(micros: ch.micros)
                }
                paying.insert(ch.user)
                if let lane { payingBySeg[ch.seg[lane], default: []].insert(ch.user) }
            }
            out[w][0].payingCustomers = paying.count
            for (k, s) in payingBySeg { out[w][Int(k) + 1].payingCustomers = s.count }
            // Refunds of the window's charges known at asOf, taken from the charge's window.
            var f = Self.lowerBound(refunds, lo) { $0.chargeTime }
            while f < refunds.count, refunds[f].chargeTime < hi {
                let r0 = refunds[f]
                f += 1
                guard r0.time <= asOf else { continue }
                let cur = name(r0.currency)
                update(w, r0.seg) { r in
                    r.refundedTransactions += Int(r0.sign)
                    r.revenue[cur, default: .zero] += Money(micros: r0.sign > 0 ? 0 &- r0.micros : r0.micros)
                }
            }
            // Customers first seen within the window: conversions within `within`, payers within `lifetime`.
            var k = Self.lowerBound(customers, lo) { $0.firstSeen }
            while k < customers.count, customers[k].firstSeen < hi {
                let cu = customers[k]
                k += 1
                update(w, cu.seg) { r in
                    r.newCustomers += 1
                    if cu.firstConversion <= asOf, cu.firstConversion &- cu.firstSeen < within { r.initialConversions += 1 }
                    if cu.firstPaid <= asOf, cu.firstPaid &- cu.firstSeen < within { r.payingConversions += 1 }
                    if cu.firstPaid <= asOf, cu.firstPaid &- cu.firstSeen < lifetime { r.lifetimePayingCustomers += 1 }
                }
            }
            var m = Self.lowerBound(cohortMoney, lo) { $0.firstSeen }
            while m < cohortMoney.count, cohortMoney[m].firstSeen < hi {
                let cm = cohortMoney[m]
                m += 1
                guard cm.time <= asOf, cm.time &- cm.firstSeen < lifetime else { continue }
                let cur = name(cm.currency)
                update(w, cm.seg) { r in r.lifetimeRevenue[cur, default: .zero] += Money(micros: cm.micros) }
            }
            // Customers with an event on a day the window touches (ARPU's denominator; all users only).
            let firstDay = lo.quotientRoundingDown(86_400_000_000_000), lastDay = (hi &- 1).quotientRoundingDown(86_400_000_000_000)
            seen.removeAll()
            var a = Self.lowerBound(activity, firstDay) { $0.day }
            while a < activity.count, activity[a].day <= lastDay {
                seen.insert(activity[a].user)
                a += 1
            }
            out[w][0].activeCustomers = seen.count
        }

        return (0..<windows).map { w in
            var b = AnalystBreakdown()
            b.total = out[w][0]
            for k in touched[w].indices where touched[w][k] { b.segments[name(Int32(k - 1))] = out[w][k] }
            return b
        }
    }
}
