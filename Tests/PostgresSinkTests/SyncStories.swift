import EventCodec
import SubscriptionDomain

/// A user's plan state after `lines` (canonical event lines, in order) under `profile`.
func state(_ lines: [String], profile: Profile) throws -> SubscriberState {
    let decider = PlanDecider(profile: profile)
    var s: SubscriberState?
    for text in lines {
        let event = try EventCodec.decode(text)
        if s == nil { s = SubscriberState(user: event.user) }
        decider.evolve(&s!, event)
    }
    return s!
}

/// An instant from RFC 3339 text.
func t(_ text: String) -> Timestamp {
    guard let value = Timestamp.parse(text) else { preconditionFailure("not an instant: \(text)") }
    return value
}

/// An event line from its parts (data as JSON text).
func ev(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
    #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
}

/// A purchase of `product` (paid at 9.99 unless a trial).
func buy(_ user: String, _ product: String, txn: String, at time: String, expires: String, trial: Bool = false, extra: String = "") -> String {
    let offer = trial ? #","offer":"free_trial""# : #","price":"9.99","currency":"USD""#
    return ev("\(user)-\(txn)", "purchase", user, time, #"{"product":"\#(product)","transaction":"\#(txn)","expires":"\#(expires)"\#(offer)\#(extra)}"#)
}

/// The nth canonical UUID (lower case).
func uuid(_ n: Int) -> String {
    let digits = String(n, radix: 16)
    return "00000000-0000-4000-8000-" + String(repeating: "0", count: 12 - digits.count) + digits
}
