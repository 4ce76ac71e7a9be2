import Parquet
import SubscriptionDomain

/// One row of the `subscriptions` table: a period of access that one transaction opened (a
/// purchase, a renewal, an upgrade charged at once, or a subscription received by transfer).
public struct SubscriptionPeriod: Sendable, Equatable {
    public var user: String
    /// The product the transaction bought (a later change without a transaction of its own does not rename it).
    public var product: String
    public var transaction: String
    public var originalTransaction: String
    /// When the period began: the event's time (a transfer's time for a received subscription).
    public var start: Timestamp
    /// The expiry the transaction reported.
    public var expires: Timestamp
    /// When access through this period ended as the rules decide as of the instant: superseded by
    /// the next period, refunded, revoked, expired, transferred away, or run out (at `expires`, or
    /// after a grace); nil while it still gives access.
    public var effectiveEnd: Timestamp?
    public var isTrial: Bool
    public var offer: Offer?
    /// What the ledger books for the transaction (the reported price, else the catalog's); nil
    /// when it books nothing (a free trial, a family member's access, a temporary grant, a received
    /// transfer, a zero price).
    public var price: Money?
    public var currency: String?
    /// When a refund of the transaction was recorded, unless a later reversal undid it.
    public var refundedAt: Timestamp?
    public var familyShared: Bool
    public var sandbox: Bool
    /// 1 for the purchase that began a chain of renewals, then one more per renewal or charged
    /// upgrade; nil where the log does not show the chain's start (a renewal of an unknown
    /// purchase, a subscription received by transfer, a temporary grant).
    public var renewalNumber: Int?
    /// Access given by a temporary entitlement grant (TEMPORARY-GRANT) while the store confirms
    /// the purchase: not a subscription and not a sale (its price is nil).
    public var temporaryGrant = false

    /// Replaces `row` with this period's cells; `tier` is the product's tier in the profile's catalog.
    public func cells(tier: String?, into row: inout [ParquetValue]) {
        row.removeAll(keepingCapacity: true)
        row.append(.string(user))
        row.append(.string(product))
        row.append(TableCell.text(tier))
        row.append(.string(transaction))
        row.append(.string(originalTransaction))
        row.append(TableCell.time(start))
        row.append(TableCell.time(expires))
        row.append(TableCell.time(effectiveEnd))
        row.append(.bool(isTrial))
        row.append(TableCell.text(offer?.rawValue))
        row.append(TableCell.money(price))
        row.append(TableCell.text(currency))
        row.append(TableCell.time(refundedAt))
        row.append(.bool(familyShared))
        row.append(.bool(sandbox))
        row.append(renewalNumber.map { .int64(Int64($0)) } ?? .null)
        row.append(.bool(temporaryGrant))
    }
}
