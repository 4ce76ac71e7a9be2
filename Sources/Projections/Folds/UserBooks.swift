import SubscriptionDomain

/// One user's money: what was charged and refunded, per currency, and the paid state for churn.
package struct UserBooks: Sendable, Equatable {
    package var gross: [Amount] = []
    package var refunded: [Amount] = []

    /// A sum in one currency (a user pays in one or two currencies: a small array, not a dictionary).
    package struct Amount: Sendable, Equatable {
        package var currency: String
        package var money: Money

        package init(currency: String, money: Money) {
            self.currency = currency
            self.money = money
        }
    }

    static func add(_ m: Money, _ currency: String, to amounts: inout [Amount]) {
        if let i = amounts.firstIndex(where: { $0.currency == currency }) { amounts[i].money = amounts[i].money + m } else {
            amounts.append(Amount(currency: currency, money: m))
        }
    }
    /// Price of each charged transaction, to value a refund that carries no price.
    package var charges: [Charge] = []
    /// Per currency, for charges whose store said the developer's take-home share: what net revenue
    /// keeps less than the profile's commission would (price × (1 − commission − share)), less the
    /// same for their refunds. Net = kept − commission − this (RevenueReport).
    package var takehomeAdjustment: [Amount] = []

    package struct Charge: Sendable, Equatable {
        package var transaction: String
        package var price: Money
        package var currency: String
        /// The take-home share in parts per million, when the store said it.
        package var takehome: Int64? = nil

        package init(transaction: String, price: Money, currency: String, takehome: Int64? = nil) {
            self.transaction = transaction
            self.price = price
            self.currency = currency
            self.takehome = takehome
        }
    }

    /// `amount` × (1 − commission − share): the adjustment of a charge (or, negated, of its refund).
    static func adjustment(_ amount: Money, share: Int64, commissionPercent: Int) -> Money {
        amount.scaled(by: 1_000_000 - Int64(commissionPercent) * 10_000 - share, over: 1_000_000)
    }

    /// Whether an event of `type` can change the books (`record`): a sale, a refund or its reversal,
    /// an upgrade charged at once. (A walk compares the books around the others for nothing.)
    static func records(_ type: EventType) -> Bool {
        switch type {
        case .purchase, .renewal, .consumablePurchase, .refund, .productChange, .refundReversed: true
        case .cancellation, .uncancellation, .billingIssue, .expiration, .revoke, .pause, .transfer,
             .creditsUsed, .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted,
             .purchasePending, .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
             .notificationsDisabled, .notificationsEnabled: false
        }
    }

    mutating func record(_ e: Event, rule: Rule, decider: PlanDecider, includeSandbox: Bool) {
        guard includeSandbox || rule != .sandboxApart, rule != .duplicateTransaction else { return }
        switch e.data {
        case .purchase(let p):
            // A family member's access is not a sale: the organizer's purchase is. Nor is a temporary
            // grant, running subscription or not: the confirmed purchase is.
            guard p.offer != .freeTrial, p.familyShared != true, !p.temporaryGrant else { return }
            sale(p.transaction, p.product, p.price, p.currency, takehome: p.takehomeShare, decider)
        case .renewal(let r):
            guard r.familyShared != true else { return }
            sale(r.transaction, r.product, r.price, r.currency, takehome: r.takehomeShare, decider)
        case .consumablePurchase(let c):
            sale(c.transaction, c.product, c.price, c.currency, takehome: c.takehomeShare, decider)
        case .refund(let r):
            let charged = charges.last { $0.transaction == r.transaction }
            guard let price = r.price ?? charged?.price else { return }
            let currency = r.currency ?? charged?.currency ?? "USD"
            Self.add(price, currency, to: &refunded)
            if let share = charged?.takehome {
                Self.add(.zero - Self.adjustment(price, share: share, commissionPercent: decider.commissionPercent), currency, to: &takehomeAdjustment)
            }
        case .productChange(let c):
            // An upgrade charged at once (it carries its transaction and price).
            guard rule == .upgradeNow, let txn = c.ref.transaction, let price = c.price, price > .zero else { return }
            let currency = c.currency ?? "USD"
            Self.add(price, currency, to: &gross)
            charges.append(Charge(transaction: txn, price: price, currency: currency))
        case .refundReversed(let r):
            guard let charge = charges.last(where: { $0.transaction == r.transaction }) else { return }
            Self.add(.zero - charge.price, charge.currency, to: &refunded)
            if let share = charge.takehome {
                Self.add(Self.adjustment(charge.price, share: share, commissionPercent: decider.commissionPercent), charge.currency, to: &takehomeAdjustment)
            }
        case .cancellation, .uncancellation, .billingIssue, .expiration, .revoke, .pause, .transfer,
             .creditsUsed, .accountCreated, .accountDeleted, .paywallViewed, .paywallCtaTapped, .purchaseStarted,
             .purchasePending, .purchaseSuccess, .purchaseFailed, .restoreClicked, .restoreSuccess, .restoreFailed,
             .notificationsDisabled, .notificationsEnabled:
            return
        }
    }

    /// A sale at the reported price, else the product's listed price; `share`, the take-home share
    /// the store reported (parts per million), if it did.
    private mutating func sale(_ txn: String, _ product: String, _ reported: Money?, _ reportedCurrency: String?, takehome share: Int64?,
                               _ decider: PlanDecider) {
        let listed = reported == nil || reportedCurrency == nil ? decider.listedPrice(of: product) : nil
        guard let price = reported ?? listed?.price, price > .zero else { return }
        let currency = reportedCurrency ?? listed?.currency ?? "USD"
        Self.add(price, currency, to: &gross)
        if let share { Self.add(Self.adjustment(price, share: share, commissionPercent: decider.commissionPercent), currency, to: &takehomeAdjustment) }
        charges.append(Charge(transaction: txn, price: price, currency: currency, takehome: share))
    }
}
