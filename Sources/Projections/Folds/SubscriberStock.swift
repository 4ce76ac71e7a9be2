import SubscriptionDomain

/// What one user adds to the revenue report's stocks as of an instant: active subscription (with
/// its monthly recurring revenue), active trial, or churned subscriber. The plain revenue report
/// and the series (`LedgerSeries`) both classify users with this one function.
package struct SubscriberStock: Sendable, Equatable {
    package var active = 0
    package var trial = 0
    package var churned = 0
    /// The MRR of an active paid subscription, in `currency`.
    package var mrr = Money.zero
    package var currency = ""
    /// Whether the user adds to MRR (and its holders) in `currency`.
    var holdsMRR: Bool { active > 0 && !currency.isEmpty }

    static let none = SubscriberStock()

    /// The user's contribution as of `instant`, from their state and books folded up to it.
    static func of(_ state: SubscriberState, books: UserBooks, decider: PlanDecider, at instant: Timestamp) -> SubscriberStock {
        var s = SubscriberStock()
        switch decider.status(state, at: instant).planState {
        case .pro, .proGrace:
            // The production subscription's fields are read in place (`subscription` would copy it).
            let i = state.index(of: .production)
            // A family member or a temporary grant holds access, not a subscription: neither active nor in MRR.
            if let i, state.subscriptions[i].accessOnly { break }
            s.active = 1
            if let i, let product = decider.billingTerms(of: state.subscriptions[i].product),
               let price = state.subscriptions[i].price ?? product.price, price >= .zero, let months = product.periodMonths {
                // (A negative price, which only a log written before the import checked ranges can hold, is no revenue, as in gross.)
                s.currency = state.subscriptions[i].currency ?? product.currency
                s.mrr = price.scaled(by: 1, over: Int64(months))
            }
        case .trial:
            s.trial = 1
        case .free, .guest:
            if LedgerSnapshot.isChurned(state, books: books) { s.churned = 1 }
        }
        return s
    }
}
