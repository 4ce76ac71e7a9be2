import SubscriptionDomain

/// The segment a user is counted in by `counts`, `funnel` and `revenue --by-segment`: one value
/// per user, decided by the user's own events up to the report's instant (docs/rules.md,
/// "Segments of the reports"), so that every segment's figures sum to the report's total.
///
/// - `product`: the product of the user's (production) subscription as of the instant, the one
///   running or the last that ran; `none` for a user who never subscribed.
/// - `tier`: that product's tier in the profile's catalog; `none` without one.
/// - `offer`: the offer of the user's last production purchase (`free_trial`, `intro`, `none`).
/// - `store`, `country`: the `store`/`country` data fields of the user's last sale that carries
///   them (a purchase, or a production renewal), as `metrics` reads them; `unknown` otherwise.
///
/// A subscription received by transfer does not move its recipient to another segment.
package struct UserSegment {
    let segment: Segment
    let decider: PlanDecider

    package init(_ segment: Segment, profile: Profile) {
        self.segment = segment
        decider = PlanDecider(profile: profile)
    }

    /// The value for a user without an event by the instant.
    package var empty: String { segment == .store || segment == .country ? Segment.unknown : Segment.none }

    /// The user's value from their events in effect order, those after `asOf` left out.
    package func value(_ events: [Event], asOf: Timestamp) -> String {
        switch segment {
        case .product, .tier:
            var state = SubscriberState(user: events.first?.user ?? "")
            for e in events where e.time <= asOf { _ = decider.evolve(&state, e) }
            guard let product = state.subscription?.product else { return Segment.none }
            return segment == .product ? product : decider.product(product)?.tier ?? Segment.none
        case .offer:
            var offer = Segment.none
            for e in events where e.time <= asOf {
                if case .purchase(let p) = e.data, p.environment != .sandbox, p.familyShared != true, !p.temporaryGrant { offer = (p.offer ?? .none).rawValue }
            }
            return offer
        case .store, .country:
            var store = Segment.unknown, country = Segment.unknown
            for e in events where e.time <= asOf {
                switch e.data {
                case .purchase: AnalystWalk.storeFields(e, &store, &country)
                case .renewal(let r) where r.environment != .sandbox: AnalystWalk.storeFields(e, &store, &country)
                default: break
                }
            }
            return segment == .store ? store : country
        }
    }

    package init(segment: Segment, decider: PlanDecider) {
        self.segment = segment
        self.decider = decider
    }
}
