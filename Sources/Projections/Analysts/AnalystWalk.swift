import SubscriptionDomain

/// One user's facts for the analysts' model (`AnalystFacts`): their events folded in effect order
/// with the same `UserFold` as every replay, sampled at each event time and at each instant the
/// plan can change without an event (`UserSteps.statusInstants`), so that every dated fact is
/// what a replay as of that instant sees. A subscription transferred to the user counts from its
/// arrival, as in `UserSteps`.
package struct AnalystWalk {
    let decider: PlanDecider
    let options: ReplayOptions

    package init(profile: Profile) {
        decider = PlanDecider(profile: profile)
        options = ReplayOptions(profile: profile, asOf: Timestamp(nanoseconds: .max))
    }

    /// The user's facts, and how their own `transferOut` changed (for the recipients' walk).
    package func walk(_ user: String, events: [Event], senders: [UserSteps.Sender] = []) -> (facts: AnalystFacts, transfers: [UserSteps.TransferChange]) {
        var fold = UserFold(user: user)
        var facts = AnalystFacts(user: user)
        var outs: [UserSteps.TransferChange] = []
        var chargeTimes: [Timestamp] = []
        var offer = Segment.none, store = Segment.unknown, country = Segment.unknown
        var stock = SubscriberStock.none
        var everActive = false
        var activeSegments = SegmentValues.none
        let profile = decider.profile
        let arrivals = Set(senders.flatMap { $0.changes.map(\.time) }).sorted()

        func effectiveState(at t: Timestamp) -> SubscriberState {
            guard !senders.isEmpty else { return fold.state }
            var s = fold.state
            for sender in senders {
                guard let out = sender.transfer(at: t), out.to == user else { continue }
                _ = decider.receiveTransfer(&s, out.subscription, at: out.time)
            }
            return s
        }
        func segments(_ state: SubscriberState) -> SegmentValues {
            let product = state.subscription?.product
            let tier = product.flatMap { profile.product($0)?.tier } ?? Segment.none
            return SegmentValues(values: [product ?? Segment.none, store, country, offer, tier])
        }
        func move(_ t: Timestamp, _ kind: AnalystFacts.Movement.Kind, _ currency: String, _ mrr: Int64, _ seg: SegmentValues) {
            facts.movements.append(AnalystFacts.Movement(time: t, kind: kind, currency: currency, mrr: mrr, segments: seg))
        }
        func sample(at t: Timestamp) {
            let state = effectiveState(at: t)
            let s = SubscriberStock.of(state, books: fold.books, decider: decider, at: t)
            let seg = segments(state)
            if stock.active == 0, s.active == 1 {
                move(t, everActive ? .resubscribed : .new, s.currency, s.mrr.micros, seg)
                everActive = true
            } else if stock.active == 1, s.active == 0 {
                move(t, .churned, stock.currency, stock.mrr.micros, activeSegments)
            } else if stock.active == 1, s.active == 1 {
                // A subscription that changes segment (an upgrade to another product) moves its
                // MRR between segments: each segment's stock stays exact, the totals do not move.
                if seg != activeSegments {
                    move(t, .segmentOut, stock.currency, stock.mrr.micros, activeSegments)
                    move(t, .segmentIn, stock.currency, stock.mrr.micros, seg)
                }
                if stock.currency == s.currency, stock.mrr != s.mrr {
                    let d = s.mrr.micros &- stock.mrr.micros
                    move(t, d > 0 ? .expansion : .contraction, s.currency, d.magnitude > UInt64(Int64.max) ? .max : abs(d), seg)
                } else if stock.currency != s.currency {
                    if !stock.currency.isEmpty { move(t, .contraction, stock.currency, stock.mrr.micros, seg) }
                    if !s.currency.isEmpty { move(t, .expansion, s.currency, s.mrr.micros, seg) }
                }
            }
            stock = s
            if s.active == 1 { activeSegments = seg }

            let status = decider.status(state, at: t)
            if facts.trial == nil, let start = fold.trialStartedAt {
                facts.trial = AnalystFacts.Trial(start: start, segments: seg)
                if facts.firstConversion.map({ start < $0 }) ?? true {
                    facts.firstConversion = start
                    facts.customerSegments = seg
                }
            }
            if var trial = facts.trial {
                if trial.convertedAt == nil, fold.trialConverted { trial.convertedAt = t }
                let inTrial = status.hasAccess && state.subscription?.isTrial == true
                if trial.convertedAt == nil, trial.abandonedAt == nil, !inTrial { trial.abandonedAt = t }
                facts.trial = trial
            }

            let v = decider.view(state, at: t)
            let span = AnalystFacts.Span(start: t, planState: v.planState, graceReason: v.graceReason, graceEndsAt: v.graceEndsAt,
                                         product: v.product, tier: v.tier, expiresAt: v.expiresAt, autoRenew: v.autoRenew,
                                         billingIssue: v.billingIssue)
            if let last = facts.spans.last, Self.sameList(last, span) { return }
            facts.spans.append(span)
        }
        func books(after e: Event, refundedBefore: [UserBooks.Amount]) {
            let charges = fold.books.charges
            guard charges.count != chargeTimes.count || fold.books.refunded != refundedBefore else { return }
            let seg = segments(effectiveState(at: e.time))
            while chargeTimes.count < charges.count {
                let c = charges[chargeTimes.count]
                chargeTimes.append(e.time)
                facts.charges.append(AnalystFacts.Charge(time: e.time, currency: c.currency, micros: c.price.micros, segments: seg))
                if facts.firstPaid == nil { facts.firstPaid = e.time }
                if facts.firstConversion.map({ e.time < $0 }) ?? true {
                    facts.firstConversion = e.time
                    facts.customerSegments = seg
                }
            }
            var transaction: String?
            switch e.data {
            case .refund(let r): transaction = r.transaction
            case .refundReversed(let r): transaction = r.transaction
            default: break
            }
            let charged = transaction.flatMap { txn in charges.lastIndex { $0.transaction == txn } }
            for a in fold.books.refunded {
                let before = refundedBefore.first { $0.currency == a.currency }?.money.micros ?? 0
                let d = a.money.micros &- before
                guard d != 0 else { continue }
                facts.refunds.append(AnalystFacts.Refund(time: e.time, chargeTime: charged.map { chargeTimes[$0] } ?? e.time, currency: a.currency,
                                                         micros: d > 0 ? d : 0 &- d, sign: d > 0 ? 1 : -1, segments: seg))
            }
        }

        // A user first seen by a subscription handed to them (a recipient without events of their own) is a customer from then.
        let firstArrival = senders.flatMap { $0.changes.filter { $0.transfer?.to == user }.map(\.time) }.min()
        facts.firstSeen = [events.first?.time, firstArrival].compactMap { $0 }.min()
        UserSteps.walkInstants(events: events, arrivals: arrivals, decider: decider, stateAt: effectiveState, timer: sample) { now, at in
            for k in at {
                let e = events[k]
                let day = (e.time.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400)
                if facts.activeDays.last != day { facts.activeDays.append(day) }
                switch e.data {
                case .purchase(let p):
                    if p.environment != .sandbox, p.familyShared != true, !p.temporaryGrant { offer = (p.offer ?? .none).rawValue }
                    Self.storeFields(e, &store, &country)
                case .renewal(let r):
                    if r.environment != .sandbox { Self.storeFields(e, &store, &country) }
                default: break
                }
                let before = fold.transferOut
                let refundedBefore = fold.books.refunded
                fold.apply(e, decider, options)
                books(after: e, refundedBefore: refundedBefore)
                if fold.transferOut != before { outs.append(UserSteps.TransferChange(time: now, transfer: fold.transferOut)) }
            }
            sample(at: now)
        }
        return (facts, outs)
    }

    /// Whether two spans list alike (their start aside).
    static func sameList(_ a: AnalystFacts.Span, _ b: AnalystFacts.Span) -> Bool {
        var b = b
        b.start = a.start
        return a == b
    }

    /// The `store` and `country` data fields of a sale, when the event carries them as strings.
    static func storeFields(_ e: Event, _ store: inout String, _ country: inout String) {
        for f in e.extra.unknown {
            guard f.name == "store" || f.name == "country", let s = plainString(f.rawJSON) else { continue }
            if f.name == "store" { store = s } else { country = s }
        }
    }

    /// A JSON string literal without escapes, unquoted (nil otherwise: such a value is not a segment).
    static func plainString(_ raw: String) -> String? {
        guard raw.count >= 3, raw.first == "\"", raw.last == "\"" else { return nil }
        let inner = raw.dropFirst().dropLast()
        guard !inner.contains("\\"), !inner.contains("\""), inner.count <= 64 else { return nil }
        return String(inner)
    }
}
