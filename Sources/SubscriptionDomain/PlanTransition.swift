/// What one event (or one transfer received) did to a plan: the rule that made the change. An
/// event kept apart in the sandbox reports SANDBOX, and says here which rule its sandbox
/// subscription followed, so that a reader counting sandbox activity (with sandbox included)
/// need not guess it.
public struct PlanTransition: Sendable, Equatable {
    /// The rule the state reports after the change (`SubscriberState.rule`).
    public var rule: Rule
    /// For an event kept apart in the sandbox (`rule` is SANDBOX): the rule its sandbox
    /// subscription followed, as the same event would report in production (a sandbox trial's
    /// renewal: CH08 L324). Nil for every other change, and when the sandbox had no subscription.
    public var sandboxRule: Rule?

    public init(rule: Rule, sandboxRule: Rule? = nil) {
        self.rule = rule
        self.sandboxRule = sandboxRule
    }
}
