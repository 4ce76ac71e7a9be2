import Projections
import EventStore
import SubscriptionDomain

extension TimeIndex {
    /// What bringing an index to the log's head after new records did.
    public struct Update: Sendable, Equatable {
        /// Log records read after the index's head.
        public var recordsRead = 0
        /// Users whose walk was taken out and put back (those of the records, and the recipients of their transfers).
        public var usersWalked = 0
        /// Steps in the overlay afterwards (0 when it was merged into the base).
        public var overlaySteps = 0
        /// Whether the overlay was merged into the base.
        public var compacted = false
    }

    /// The index brought from its head to `log`'s head: the users of the records after its head,
    /// and the recipients of the transfers they made (before or now), are walked from their own
    /// streams (read through the log's stream index) as of the index's head (sign −1: what they
    /// added) and as of the log's head (what they add now), with the senders' transfers handed to
    /// them as a build hands them; the differences go into the overlay. `log` must be opened with
    /// indexes and `Replay.secondaryKeys`, and its head must follow the index's (the caller checks
    /// the chain hash there).
    /// The overlay is merged into the base when it holds more steps than `overlayLimit` (default
    /// `overlayLimit(base:)`).
    func updated(log: EventLog, profile: Profile, overlayLimit: Int? = nil) throws -> (TimeIndex, Update) {
        let head = log.head.position
        var update = Update()
        var walker = StepWalker(log: log, steps: UserSteps(profile: profile, includeSandbox: includesSandbox), head: head)
        var builder = TimeIndexBuilder()
        overlay.forEachDelta { builder.carry($0, $1, $2) }
        builder.count(magnitude: overlayMagnitude)
        if let firstEvent { builder.noteEvent(firstEvent) }
        var users = Set<String>()
        try log.forEach(from: position + 1, through: head, after: hash) { record in
            update.recordsRead += 1
            users.insert(record.streamString)
            builder.noteEvent(try Replay.decode(record).time)
        }
        // The recipients of transfers these users made, before or now: what was handed to them changes with the sender.
        var pending = Array(users)
        while let user = pending.popLast() {
            for through in [position, head] {
                for to in try walker.recipients(of: user, through: through) where users.insert(to).inserted { pending.append(to) }
            }
        }
        for user in users.sorted() {
            try walker.walk(user, through: position, sign: -1) { builder.add($0, $1, $2) }
            try walker.walk(user, through: head, sign: 1) { builder.add($0, $1, $2) }
        }
        update.usersWalked = users.count
        guard let headHash = try log.chainHash(at: head) else {
            throw ProjectionError(position: head, reason: "the log does not reach its own head")
        }
        let first = builder.firstEvent, magnitude = builder.moneyMagnitude
        var out = with(overlay: builder.finishSteps(), magnitude: magnitude, firstEvent: first, position: head, hash: headHash)
        if out.overlay.count > overlayLimit ?? Self.overlayLimit(base: out.baseCount) {
            out = try out.compacted()
            update.compacted = true
        }
        update.overlaySteps = out.overlay.count
        return (out, update)
    }
}

extension TimeIndex {
    /// The overlay's size past which it is merged into the base: an eighth of the base (at least
    /// 4096 steps), so that lookups stay two searches and the merge's cost (the base's size) is
    /// spread over the updates that grew the overlay.
    static func overlayLimit(base: Int) -> Int { max(4096, base / 8) }
}

/// Walks single users (`UserSteps`) from their own streams, read once each through the log's
/// stream index, as of a log position: as a build walks them, a recipient of transfers with the
/// senders' `transferOut` as of each instant, senders in id order.
struct StepWalker {
    let log: EventLog
    let steps: UserSteps
    let head: UInt64
    private var streams: [String: [StoredEvent]] = [:]
    private var senders: [String: [String]] = [:]
    private var changes: [String: [UserSteps.TransferChange]] = [:]

    init(log: EventLog, steps: UserSteps, head: UInt64) {
        self.log = log
        self.steps = steps
        self.head = head
    }

    /// The user's events up to the handle's head, in log order.
    private mutating func stream(_ user: String) throws -> [StoredEvent] {
        if let s = streams[user] { return s }
        let events = try log.records(inStream: user).filter { $0.position <= head }.map {
            StoredEvent(event: try Replay.decode($0), position: $0.position, recorded: Timestamp(milliseconds: $0.recorded))
        }
        streams[user] = events
        return events
    }

    /// The user's events up to `position`, in effect order.
    private mutating func events(_ user: String, through position: UInt64) throws -> [Event] {
        UserTimeline(try stream(user).filter { $0.position <= position }).entries.map(\.stored.event)
    }

    /// How the user's own `transferOut` changes with the instant, from their records up to `position`.
    private mutating func transferChanges(_ user: String, through position: UInt64) throws -> [UserSteps.TransferChange] {
        let key = "\(position) \(user)"
        if let c = changes[key] { return c }
        let c = steps.walk(user, events: try events(user, through: position)) { _, _, _ in }
        changes[key] = c
        return c
    }

    /// The users the user's transfers up to `position` ever named.
    mutating func recipients(of user: String, through position: UInt64) throws -> Set<String> {
        Set(try transferChanges(user, through: position).compactMap { $0.transfer?.to })
    }

    /// The users with a `transfer` naming `user` up to the handle's head, by id.
    private mutating func senders(to user: String) throws -> [String] {
        if let s = senders[user] { return s }
        var found = Set<String>()
        for r in try log.records(withKey: user) where r.position <= head {
            let e = try Replay.decode(r)
            if case .transfer(let t) = e.data, t.to == user { found.insert(e.user) }
        }
        let sorted = found.sorted()
        senders[user] = sorted
        return sorted
    }

    /// Walks the user as of `position`, each difference times `sign`.
    mutating func walk(_ user: String, through position: UInt64, sign: Int64, _ emit: (TimeKey, Timestamp, Int64) -> Void) throws {
        var given: [UserSteps.Sender] = []
        for sender in try senders(to: user) {
            let c = try transferChanges(sender, through: position)
            if c.contains(where: { $0.transfer?.to == user }) { given.append(UserSteps.Sender(user: sender, changes: c)) }
        }
        _ = steps.walk(user, events: try events(user, through: position), senders: given, sign: sign, emit)
    }
}
