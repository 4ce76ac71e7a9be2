import SubscriptionDomain

/// An instant from its RFC 3339 text.
func at(_ s: String) -> Timestamp { Timestamp.parse(s)! }

/// An event of `u1` unless told, its id made from its type and time unless given.
func event(_ type: EventType, _ time: String, user: String = "u1", id: String? = nil, _ set: (inout EventFields) -> Void = { _ in }) -> Event {
    var d = EventFields()
    set(&d)
    return Event(id: id ?? "\(type.rawValue)-\(time)", type: type, user: user, time: at(time), fields: d)
}
