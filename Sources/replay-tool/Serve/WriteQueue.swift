import Dispatch
import EventStore
import Foundation
import HTTPServer
import Projections
import Synchronization
import SubscriptionDomain
import StoreAdapters
import Ingest

/// The server's one writer: requests that write are queued here and committed together by one
/// thread (group commit): every request waiting when a commit starts goes into the same atomic,
/// fsynced batch, and each is answered only after that batch is durable. A request's rejected
/// lines are kept in the log's `rejected/` folder, synced, before its 400.
final class WriteQueue: Sendable {
    /// What a request asks to be written.
    struct Job: Sendable {
        enum Kind: Sendable { case webhook, appstore, events }
        var kind: Kind
        /// The request's lines, without their newlines.
        var lines: [[UInt8]]
        var responder: HTTPResponder
    }

    /// What the committing thread owns: the write handle, the importer settings, the rejected-lines files.
    private struct Writer: @unchecked Sendable {
        let log: EventLog
        let profile: Profile
        let opener: JWSOpener
        var rejected: RejectedLinesFile
    }

    private let pending = Mutex<(jobs: [Job], stopping: Bool)>(([], false))
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let writer: Mutex<Writer>
    /// Called after each commit that appended something (the PostgreSQL sync, which finds the
    /// touched users itself from its checkpoint).
    let committed: (@Sendable () -> Void)?
    /// Commits that appended something, counted once durable and before their writes are answered.
    private let appendedCommits = Atomic<UInt64>(0)
    /// How many commits appended something so far (read handles skip catching up when unchanged).
    var commits: UInt64 { appendedCommits.load(ordering: .acquiring) }
    /// The kept answers a commit's records can change, dropped before the commit's writes are answered.
    let answers: UserAnswerCache<HTTPResponse>?

    init(log: EventLog, profile: Profile, opener: JWSOpener, answers: UserAnswerCache<HTTPResponse>? = nil, committed: (@Sendable () -> Void)? = nil) {
        var rejected = RejectedLinesFile(logDirectory: log.directory)
        rejected.echoes = false
        writer = Mutex(Writer(log: log, profile: profile, opener: opener, rejected: rejected))
        self.answers = answers
        self.committed = committed
    }

    /// Starts the committing thread.
    func start() {
        let thread = Thread { [self] in
            while true {
                if wake.wait(timeout: .now() + .milliseconds(Self.foreignCheckMilliseconds)) == .timedOut {
                    checkForeignAppends()
                    continue
                }
                let (jobs, stopping) = pending.withLock { state -> ([Job], Bool) in
                    let taken = state.jobs
                    state.jobs = []
                    return (taken, state.stopping)
                }
                if !jobs.isEmpty { commit(jobs) }
                if stopping && pending.withLock({ $0.jobs.isEmpty }) { break }
            }
            finished.signal()
        }
        thread.name = "ledger-writer"
        thread.start()
    }

    /// How often an idle writer looks whether another process appended to the log.
    static let foreignCheckMilliseconds = 100

    /// Records appended by another process (an `import` into the log while serve runs, between
    /// the write lock's batches): kept answers cannot tell whom they touched, so all are dropped,
    /// read handles catch up and the PostgreSQL follower is woken. Seen within
    /// `foreignCheckMilliseconds` of their commit.
    private func checkForeignAppends() {
        let moved: Bool = writer.withLock { w in
            let before = w.log.head
            do { try w.log.refresh() } catch { return true }   // read handles look again rather than trust it
            return w.log.head != before
        }
        guard moved else { return }
        appendedCommits.add(1, ordering: .releasing)
        answers?.dropAll()
        committed?()
    }

    /// Queues a job; it is answered once committed (or refused).
    func submit(_ job: Job) {
        let accepted = pending.withLock { state -> Bool in
            guard !state.stopping else { return false }
            state.jobs.append(job)
            return true
        }
        if accepted { wake.signal() } else { job.responder.respond(ServedJSON.error(503, "the server is stopping")) }
    }

    /// Commits what is queued, then stops the thread (after the server stopped taking requests).
    func stop() {
        pending.withLock { $0.stopping = true }
        wake.signal()
        finished.wait()
    }

    /// One group commit: the jobs of each source in one batch each.
    private func commit(_ jobs: [Job]) {
        var appended = false
        for kind in [Job.Kind.webhook, .appstore, .events] {
            let group = jobs.filter { $0.kind == kind }
            if !group.isEmpty && commit(group, kind: kind) { appended = true }
        }
        if appended { committed?() }
    }

    /// Imports the jobs' lines as one input (one append, one fsync) and answers each job from
    /// its own lines' outcomes; returns whether anything was appended.
    private func commit(_ jobs: [Job], kind: Job.Kind) -> Bool {
        var input: [UInt8] = []
        var ranges: [ClosedRange<Int>] = []
        var line = 1
        for job in jobs {
            let first = line
            for l in job.lines { input += l; input.append(0x0A); line += 1 }
            ranges.append(first...(line - 1))
        }
        let outcomes = Outcomes()
        let result: Result<Bool, any Error> = writer.withLock { w in
            var importer = EventImporter(log: w.log)
            importer.source = kind == .webhook ? .revenuecat : kind == .appstore ? .appstore : .canonical
            importer.profile = w.profile
            importer.jwsOpener = w.opener
            importer.appendsWhileReading = false
            importer.batchSize = max(10_000, line)
            importer.lineOutcome = { n, o in outcomes.add(n, o) }
            if answers != nil { importer.recordAppended = { stream, payload in outcomes.touch(Replay.affectedUsers(stream: stream, payload: payload)) } }
            var summary = EventImporter.Summary()
            let before = w.log.head.position
            do {
                try importer.importLines(input, file: Self.requestName(kind), rejected: &w.rejected, into: &summary)
                try w.rejected.sync()
                return .success(w.log.head.position > before)
            } catch {
                return .failure(error)
            }
        }
        // Before any answer: a client that got its 200 reads its own write. (A failed commit
        // appended nothing; what it touched is dropped all the same.)
        let touched = outcomes.touched
        // A failed commit counts too: read handles look again rather than trust what it left.
        if case .success(false) = result {} else { appendedCommits.add(1, ordering: .releasing) }
        if !touched.isEmpty { answers?.drop(touched) }
        switch result {
        case .failure(let error):
            for job in jobs { job.responder.respond(ServedJSON.error(500, "the ledger could not commit: \(error)")) }
            return false
        case .success(let appended):
            for (job, range) in zip(jobs, ranges) { job.responder.respond(Self.answer(job.kind, outcomes.of(range))) }
            return appended
        }
    }

    static func requestName(_ kind: Job.Kind) -> String {
        switch kind {
        case .webhook: "POST /billing/webhook"
        case .appstore: "POST /appstore/notifications"
        case .events: "POST /events"
        }
    }

    /// The answer to one job from the outcomes of its lines.
    static func answer(_ kind: Job.Kind, _ outcomes: [(line: Int, outcome: EventImporter.LineOutcome)]) -> HTTPResponse {
        var appended: [UInt64] = [], duplicates: [UInt64] = [], skipped: [String] = [], rejected: [String] = []
        for (_, o) in outcomes {
            switch o {
            case .appended(let p): appended.append(p)
            case .duplicate(let p): duplicates.append(p)
            case .skipped(let t): skipped.append(t)
            case .rejected(let why): rejected.append(why)
            }
        }
        switch kind {
        case .webhook, .appstore:
            if let why = rejected.first { return ServedJSON.error(400, why) }
            if let last = appended.max() { return ServedJSON.ok(.object([("position", .int(Int(last))), ("duplicate", .bool(false))])) }
            if let last = duplicates.max() { return ServedJSON.ok(.object([("position", .int(Int(last))), ("duplicate", .bool(true))])) }
            if let type = skipped.first { return ServedJSON.ok(.object([("skipped", .string(type))])) }
            return ServedJSON.error(400, "the body holds no event")
        case .events:
            if !rejected.isEmpty && appended.isEmpty && duplicates.isEmpty && skipped.isEmpty {
                return ServedJSON.response(400, .object([("error", .string(rejected[0])), ("rejected", .int(rejected.count))]))
            }
            return ServedJSON.ok(.object([
                ("first", appended.min().map { .int(Int($0)) } ?? .null), ("last", appended.max().map { .int(Int($0)) } ?? .null),
                ("appended", .int(appended.count)), ("duplicates", .int(duplicates.count)), ("rejected", .int(rejected.count)),
            ]))
        }
    }
}

/// The outcomes of one commit's lines, gathered as the importer reports them.
private final class Outcomes: Sendable {
    private let byLine = Mutex<[(line: Int, outcome: EventImporter.LineOutcome)]>([])
    private let users = Mutex<Set<String>>([])

    /// The users whose kept answers the appended records can change.
    func touch(_ affected: [String]) { users.withLock { $0.formUnion(affected) } }

    var touched: Set<String> { users.withLock { $0 } }

    func add(_ line: Int, _ outcome: EventImporter.LineOutcome) { byLine.withLock { $0.append((line, outcome)) } }

    func of(_ lines: ClosedRange<Int>) -> [(line: Int, outcome: EventImporter.LineOutcome)] {
        byLine.withLock { all in all.filter { lines.contains($0.line) } }
    }
}
