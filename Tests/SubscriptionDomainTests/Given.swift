@testable import SubscriptionDomain

/// Test vocabulary: given events → as of an instant → then state.
func at(_ s: String) -> Timestamp { Timestamp.parse(s)! }

/// An event of `u1` unless told; its id is made from its type and time unless given, so the
/// helpers keep no state between calls (tests run in parallel).
func event(_ type: EventType, _ time: String, user: String = "u1", id: String? = nil, _ set: (inout EventFields) -> Void = { _ in }) -> Event {
    var d = EventFields()
    set(&d)
    return Event(id: id ?? "\(type.rawValue)-\(time)", type: type, user: user, time: at(time), fields: d)
}

func purchase(_ time: String, expires: String, txn: String = "t1", trial: Bool = false, product: String = "handz.pro.monthly", env: StoreEnvironment? = nil) -> Event {
    event(.purchase, time, id: "p-\(txn)") {
        $0.product = product; $0.transaction = txn; $0.expires = at(expires)
        $0.offer = trial ? .freeTrial : nil; $0.price = Money.parse("9.99"); $0.currency = "USD"; $0.environment = env
    }
}

func renewal(_ time: String, expires: String, txn: String, product: String = "handz.pro.monthly") -> Event {
    event(.renewal, time, id: "r-\(txn)-\(time)") {
        $0.product = product; $0.transaction = txn; $0.expires = at(expires); $0.price = Money.parse("9.99"); $0.currency = "USD"
    }
}

/// The plan of `events` (in arrival order) as of `instant`.
func plan(_ events: [Event], asOf instant: String, profile: Profile = .handz) -> PlanView {
    let stored = events.enumerated().map { StoredEvent(event: $1, position: UInt64($0 + 1), recorded: $1.time) }
    return UserTimeline(stored).view(PlanDecider(profile: profile), user: "u1", at: at(instant))
}
