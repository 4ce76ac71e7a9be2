import SubscriptionDomain

/// A subscription another user transferred to this one: the sender's `transfer` event, as stored
/// in the sender's stream, and the subscription it handed over.
public struct TransferIn: Sendable, Equatable {
    /// The sender, whose stream holds the `transfer` event.
    public var from: String
    /// The `transfer` event with its log position.
    public var stored: StoredEvent
    /// The sender's subscription at the transfer, as the recipient receives it.
    public var subscription: Subscription

    /// The subscription as the recipient's Decider folds it, at the time of the `transfer`.
    public var received: ReceivedTransfer { ReceivedTransfer(subscription: subscription, time: stored.event.time) }
}
