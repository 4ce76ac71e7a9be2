import Projections
import Platform
import EventStore
import SubscriptionDomain

extension ProjectionStore {
    /// What bringing the report summary to a query's instant did.
    public struct SummaryRefresh: Sendable, Equatable {
        /// Built from the kept projection (no usable summary): the cost of a full report.
        public var rebuilt = false
        /// Log records read after the summary's head.
        public var recordsRead = 0
        /// Users whose deadline had passed.
        public var expired = 0
        /// Users whose contribution was taken out and put back.
        public var usersRefolded = 0
        /// Streams read through the stream index (the refolded users and the senders of their transfers).
        public var streamsRead = 0
        /// Whether the summary file was written again.
        public var wrote = false
    }

    /// The summary file, next to the projection it goes with.
    public var summaryPath: String { logDirectory + "/projections/" + Self.fileLabel(profile.name) + "-" + fingerprint + ".summary" }

    /// Whether a report summary is kept for this profile (whether it goes with the log is checked when it is read).
    public var keepsSummary: Bool { PlatformDirectory.exists(summaryPath) }

    /// The report summary as of `instant` (default options: no window, sandbox apart), and what it cost.
    ///
    /// The stored summary is used when it is whole (CRC), of this format and fingerprint, its head
    /// is a head of this log (position reached, same chain hash) and its instant is not after
    /// `instant`. Then only the records after its head are read; their users, the users whose
    /// deadline is at or before `instant`, and the recipients of transfers they made (before or
    /// now) are folded from their own streams as of the summary's head and instant (what they
    /// added) and as of the log's head and `instant` (what they add now), through the log's
    /// stream index. Otherwise it is built from the kept projection. It is saved when it changed.
    public func summary(asOf instant: Timestamp) throws -> (summary: ReportSummary, refresh: SummaryRefresh, notificationsLoaded: Bool) {
        try summary(asOf: instant, notifications: true)
    }

    public func summary(asOf instant: Timestamp, notifications: Bool) throws -> (summary: ReportSummary, refresh: SummaryRefresh, notificationsLoaded: Bool) {
        var refresh = SummaryRefresh()
        func rebuilt() throws -> (summary: ReportSummary, refresh: SummaryRefresh, notificationsLoaded: Bool) {
            refresh.rebuilt = true
            refresh.wrote = true
            return (try buildSummary(asOf: instant), refresh, true)
        }
        let log = try Self.openIndexed(logDirectory)
        try afterOpeningLog?()
        let head = log.head.position
        // Whether the stored summary answers as it is: its sums and the deadlines up to the instant.
        guard let quick = try? ReportSummary.read(path: summaryPath, depth: .deadlines(upTo: instant, notifications: notifications)),
              isUsable(quick, log: log, instant: instant)
        else { return try rebuilt() }
        if quick.position == head && quick.expired(upTo: instant).isEmpty { return (quick, refresh, notifications) }
        // An update: the records after the summary's head and single users' streams, through the indexes.
        guard var s = try? ReportSummary.read(path: summaryPath, depth: .whole), isUsable(s, log: log, instant: instant)
        else { return try rebuilt() }
        var users = Set<String>()
        try log.forEach(from: s.position + 1, through: head, after: s.hash) { record in
            refresh.recordsRead += 1
            users.insert(record.streamString)
        }
        let expired = s.expired(upTo: instant)
        refresh.expired = expired.count
        users.formUnion(expired)
        var folder = SummaryFolder(log: log, decider: PlanDecider(profile: profile), profile: profile, head: head)
        let before = (position: s.position, instant: s.instant), after = (position: head, instant: instant)
        // The recipients of transfers these users made, before or now: their state holds what was handed to them.
        var pending = Array(users)
        while let user = pending.popLast() {
            for point in [before, after] {
                if let to = try folder.ownFold(user, through: point.position, at: point.instant)?.transferOut?.to, users.insert(to).inserted {
                    pending.append(to)
                }
            }
        }
        var notes: [ReportSummary.Note] = [], deadlines: [ReportSummary.Deadline] = []
        var scheduleChanged = false
        for user in users.sorted() {
            let old = try folder.fold(user, through: before.position, at: before.instant)
            let was = UserContribution(old, decider: folder.decider, at: before.instant)
            s.add(was, sign: -1)
            let new = try folder.fold(user, through: after.position, at: after.instant)
            let c = UserContribution(new, decider: folder.decider, at: after.instant)
            s.add(c, sign: 1)
            if !UserContribution.sameSchedule(was.notifications, c.notifications) { scheduleChanged = true }
            notes += c.notifications.map { ReportSummary.Note(user: user, entry: $0) }
            if let d = try folder.deadline(user, fold: new, through: after.position, after: after.instant) {
                deadlines.append(ReportSummary.Deadline(time: d, user: user))
            }
        }
        // The schedule is decoded only here (kept as read until it changes): a section that does not
        // decode, under a CRC that holds, is a file to build again, not an error of the query.
        do { try s.replace(users: users, notes: notes, scheduleChanged: scheduleChanged, deadlines: deadlines) } catch is ProjectionReader.Unreadable {
            return try rebuilt()
        }
        s.position = head
        guard let hash = try log.chainHash(at: head) else {
            throw ProjectionError(position: head, reason: "the log does not reach its own head")
        }
        s.hash = hash
        s.instant = instant
        refresh.usersRefolded = users.count
        refresh.streamsRead = folder.streamsRead
        // A cache of the log: if it cannot be saved, the answer stands and the next query updates again.
        refresh.wrote = (try? s.write(path: summaryPath)) != nil
        if notifications {
            // (Written first: a schedule left as read is copied as it is, not encoded again.)
            do { try s.decodeSchedule() } catch is ProjectionReader.Unreadable { return try rebuilt() }
        }
        return (s, refresh, notifications)
    }

    /// Whether a stored summary goes with this store and this log: same fingerprint, a head this
    /// log reaches with the same chain hash, and an instant not after `instant`.
    func isUsable(_ s: ReportSummary, log: EventLog, instant: Timestamp) -> Bool {
        s.fingerprint == fingerprint && s.position <= log.head.position && s.instant <= instant
            && (try? log.chainHash(at: s.position)) == s.hash
    }

    /// Builds the summary from the kept projection (brought up to the log's head) as of `instant`,
    /// and saves it. Users with events after `instant` get a deadline just after it: the first
    /// update folds them from their stream and finds their next event.
    func buildSummary(asOf instant: Timestamp) throws -> ReportSummary {
        let (snapshot, later, log) = try snapshotAndLater(asOf: instant)
        guard let hash = try log.chainHash(at: snapshot.headPosition) else {
            throw ProjectionError(position: snapshot.headPosition, reason: "the log does not reach the projection's head")
        }
        var s = ReportSummary(fingerprint: fingerprint, position: snapshot.headPosition, hash: hash, instant: instant)
        let decider = snapshot.decider
        let soon = instant + .init(nanoseconds: 1)
        let hasLater = Set(later)
        snapshot.users.forEachFold { f in
            let c = UserContribution(f.copied, decider: decider, at: instant)
            s.add(c, sign: 1)
            for n in c.notifications { s.schedule.append(ReportSummary.Note(user: f.user, entry: n)) }
            if !hasLater.contains(f.user), let d = UserContribution.nextChange(of: f.copied, decider: decider, after: instant) {
                s.deadlines.append(ReportSummary.Deadline(time: d, user: f.user))
            }
        }
        for user in later { s.deadlines.append(ReportSummary.Deadline(time: soon, user: user)) }
        s.schedule.sort { ReportSummary.inScheduleOrder($0, $1) }   // a closure: the comparison inlined (LedgerSnapshot.notifications)
        s.deadlines.sort { $0.time != $1.time ? $0.time < $1.time : $0.user < $1.user }
        try? s.write(path: summaryPath)
        return s
    }
}

/// Folds single users from their own streams, read once each through the log's stream index, as
/// of a log position and an instant, as a full replay would fold them.
struct SummaryFolder {
    let log: EventLog
    let decider: PlanDecider
    let profile: Profile
    let head: UInt64
    private var streams: [String: [StoredEvent]] = [:]
    private var senders: [String: [String]] = [:]
    private(set) var streamsRead = 0

    init(log: EventLog, decider: PlanDecider, profile: Profile, head: UInt64) {
        self.log = log
        self.decider = decider
        self.profile = profile
        self.head = head
    }

    /// The user's events up to the handle's head, in log order.
    mutating func stream(_ user: String) throws -> [StoredEvent] {
        if let s = streams[user] { return s }
        streamsRead += 1
        let events = try log.records(inStream: user).filter { $0.position <= head }.map {
            StoredEvent(event: try Replay.decode($0), position: $0.position, recorded: Timestamp(milliseconds: $0.recorded))
        }
        streams[user] = events
        return events
    }

    /// The users with a `transfer` naming `user` up to the handle's head, by id.
    mutating func senders(to user: String) throws -> [String] {
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

    func options(at instant: Timestamp) -> ReplayOptions { ReplayOptions(profile: profile, asOf: instant) }

    /// The user's own fold from their records up to `position` with times up to `instant`; nil if none.
    mutating func ownFold(_ user: String, through position: UInt64, at instant: Timestamp) throws -> UserFold? {
        let events = try stream(user).filter { $0.position <= position }
        let fold = Replay.refold(UserTimeline(events), user: user, decider: decider, options: options(at: instant))
        return fold.state.lastEventTime == nil ? nil : fold
    }

    /// The user's fold as a full replay makes it: their own, then the subscriptions transferred to
    /// them handed over in sender id order (`Replay.handTransfers`).
    mutating func fold(_ user: String, through position: UInt64, at instant: Timestamp) throws -> UserFold? {
        var fold = try ownFold(user, through: position, at: instant)
        for sender in try senders(to: user) {
            guard let out = try ownFold(sender, through: position, at: instant)?.transferOut, out.to == user else { continue }
            var recipient = fold ?? UserFold(user: user)
            if decider.receiveTransfer(&recipient.state, out.subscription, at: out.time) { fold = recipient }
        }
        return fold
    }

    /// The first instant after `instant` at which the user's contribution may change without a new
    /// record: a change of their fold's status or schedule, or their next event (a transfer they
    /// made changes the recipient: that recipient is refolded with them).
    mutating func deadline(_ user: String, fold: UserFold?, through position: UInt64, after instant: Timestamp) throws -> Timestamp? {
        var next = UserContribution.nextChange(of: fold, decider: decider, after: instant)
        for e in try stream(user) where e.position <= position && e.event.time > instant {
            next = min(next ?? e.event.time, e.event.time)
        }
        return next
    }
}
