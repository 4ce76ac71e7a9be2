import SubscriptionDomain

/// A dimension the analysts' metrics and reports can be broken down by (`--by-segment`).
public enum Segment: String, Sendable, CaseIterable {
    /// The product of the subscription (or the purchase) the figure comes from.
    case product
    /// The store that sold it: the purchase's or renewal's `store` data field (`app_store`,
    /// `play_store`, `stripe`, …, as the importer or client wrote it), else `unknown`.
    case store
    /// The buyer's country: the purchase's or renewal's `country` data field (ISO 3166 code, as
    /// written), else `unknown`.
    case country
    /// The offer of the purchase that started the subscription: `free_trial`, `intro` or `none`.
    case offer
    /// The product's tier in the profile's catalog.
    case tier

    /// The value given to a figure with nothing to attribute it to (a customer who never bought).
    public static let none = "none"
    /// The value of `store` and `country` when the events do not say.
    public static let unknown = "unknown"
}

/// One figure's values in every segment dimension, in `Segment.allCases` order.
struct SegmentValues: Sendable, Equatable {
    var values: [String]

    static let none = SegmentValues(values: Array(repeating: Segment.none, count: Segment.allCases.count))

    subscript(_ s: Segment) -> String { values[Segment.allCases.firstIndex(of: s)!] }
}
