import SubscriptionDomain

/// One user's money: what was charged and refunded, per currency, and the paid state for churn.
struct UserBooks: Sendable, Codable {
    var gross: [Amount] = []
    var refunded: [Amount] = []

    /// A sum in one currency (a user pays in one or two currencies: a small array, not a dictionary).
    struct Amount: Sendable, Codable {
        var currency: String
        var money: Money
    }

    static func add(_ m: Money, _ currency: String, to amounts: inout [Amount]) {
        if let i = amounts.firstIndex(where: { $0.currency == currency }) { amounts[i].money = amounts[i].money + m } else {
            amounts.append(Amount(currency: currency, money: m))
        }
    }
    /// Price of each charged transaction, to value a refund that carries no price.
    var charges: [Charge] = []

    struct Charge: Sendable, Codable {
        var transaction: String
        var price: Money
        var currency: String
    }

    mutating func record(_ e: Event, rule: Rule, profile: Profile, includeSandbox: Bool) {
        guard includeSandbox || rule != .sandboxApart, rule != .duplicateTransaction else { return }
        let d = e.data
        switch e.type {
        case .purchase, .renewal, .consumablePurchase:
            guard let txn = d.transaction else { return }
            let listed = d.product.flatMap { profile.product($0) }
            let isTrial = d.offer == .freeTrial
            guard !isTrial, let price = d.price ?? listed.flatMap({ Money.parse($0.price) }), price > .zero else { return }
            let currency = d.currency ?? listed?.currency ?? "USD"
            Self.add(price, currency, to: &gross)
            charges.append(Charge(transaction: txn, price: price, currency: currency))
        case .refund:
            guard let txn = d.transaction else { return }
            let charged = charges.last { $0.transaction == txn }
            guard let price = d.price ?? charged?.price else { return }
            let currency = d.currency ?? charged?.currency ?? "USD"
            Self.add(price, currency, to: &refunded)
        case .refundReversed:
            guard let txn = d.transaction, let charge = charges.last(where: { $0.transaction == txn }) else { return }
            Self.add(.zero - charge.price, charge.currency, to: &refunded)
        default:
            return
        }
    }
}
