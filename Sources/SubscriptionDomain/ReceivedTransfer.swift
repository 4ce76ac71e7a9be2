/// A subscription another user transferred to this one (TRANSFER-IN): what the sender held at the
/// `transfer`, and when. It is not an event of the recipient's stream; the Decider folds it after
/// the recipient's own events (`PlanDecider.evolve(_:_:)`).
public struct ReceivedTransfer: Sendable, Equatable {
    /// The sender's subscription as the recipient receives it.
    public var subscription: Subscription
    /// The time of the sender's `transfer` event.
    public var time: Timestamp

    public init(subscription: Subscription, time: Timestamp) {
        self.subscription = subscription
        self.time = time
    }
}
