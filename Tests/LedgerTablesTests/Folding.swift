import EventCodec
import SubscriptionDomain
@testable import LedgerTables

/// One user's events (canonical lines) folded by `PeriodFold` under `profile`, in the order given.
func fold(_ lines: [String], profile: Profile = .handz) throws -> PeriodFold {
    let decider = PlanDecider(profile: profile)
    var fold: PeriodFold?
    for text in lines {
        let event = try EventCodec.decode(text)
        if fold == nil { fold = PeriodFold(user: event.user) }
        fold!.apply(event, decider)
    }
    return fold!
}

/// The periods of `lines` as of `instant`.
func periods(_ lines: [String], at instant: String, profile: Profile = .handz) throws -> [SubscriptionPeriod] {
    try fold(lines, profile: profile).finishedPeriods(at: t(instant), PlanDecider(profile: profile))
}

/// An instant from RFC 3339 text (a typo fails the test at the parse, not later).
func t(_ text: String) -> Timestamp {
    guard let value = Timestamp.parse(text) else { preconditionFailure("not an instant: \(text)") }
    return value
}

/// An event line from its parts (data as JSON text).
func ev(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
    #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
}

/// Dollars as the ledger's micro-units.
func usd(_ micros: Int64) -> Money { Money(micros: micros) }
