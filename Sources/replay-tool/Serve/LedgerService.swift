import Foundation
import EventStore
import HTTPServer
import Projections
import SubscriptionDomain
import Reports

/// The routes of `serve` (CONTRACT §5.2): writes go to the write queue and are answered once
/// durable; reads are answered from read handles kept open, or by the tool's own commands.
struct LedgerService: Sendable {
    let directory: String
    let profile: Profile
    /// The `--profile` argument as given (a name or a file), for the commands run in process.
    let profileArgument: String
    let webhookSecret: Credential
    let apiKey: Credential
    let writes: WriteQueue
    let reads: ReadHandles
    let health: HealthState
    /// Entitlements answers kept per user, dropped by the write queue's commits.
    let answers: UserAnswerCache<HTTPResponse>

    /// Answers one request (on a worker thread; writes are answered later by the write queue).
    func handle(_ request: HTTPRequest, _ responder: HTTPResponder) {
        switch route(request, responder) {
        case .answer(let response): responder.respond(response)
        case .queued: break
        case .notFound: responder.respond(ServedJSON.error(404, "no such resource"))
        }
    }

    /// A kept entitlements answer, given on the I/O thread (`HTTPServer.Configuration.quickAnswer`):
    /// only to a `GET /billing/entitlements` with the api key whose user has an answer still true
    /// now. Anything else (nil) goes to the workers and `handle`, which also answers refusals.
    func quickAnswer(_ request: HTTPRequest) -> HTTPResponse? {
        guard request.method == "GET", request.path == "/billing/entitlements", let user = request.queryValue("user"), !user.isEmpty,
              apiKey.admits(request) else { return nil }
        return answers.answer(for: user, at: Common.now())
    }

    /// What a route did with a request.
    private enum Routed {
        case answer(HTTPResponse)
        /// Handed to the write queue, which answers once the write is durable.
        case queued
        case notFound
    }

    private func route(_ request: HTTPRequest, _ responder: HTTPResponder) -> Routed {
        switch answer(request, responder) {
        case .some(.some(let response)): return .answer(response)
        case .some(.none): return .queued
        case .none: return .notFound
        }
    }

    /// The answer: nil for no such resource, `.some(nil)` for a write handed to the queue.
    private func answer(_ request: HTTPRequest, _ responder: HTTPResponder) -> HTTPResponse?? {
        let path = request.path
        func only(_ method: String) -> HTTPResponse? {
            request.method == method ? nil : HTTPResponse(status: 405, headers: ["Allow": method, "Content-Type": "application/json"],
                                                          body: Array(#"{"error":"method not allowed"}"#.utf8))
        }
        switch path {
        case "/healthz":
            return only("GET") ?? health.answer(reads: reads)
        case "/billing/webhook":
            if let refused = only("POST") { return refused }
            guard webhookSecret.admits(request) else { return Self.unauthorized }
            return enqueue(.webhook, [Self.oneLine(request.body)], responder)
        case "/appstore/notifications":
            if let refused = only("POST") { return refused }
            return enqueue(.appstore, [Self.oneLine(request.body)], responder)
        case "/events":
            if let refused = only("POST") { return refused }
            guard apiKey.admits(request) else { return Self.unauthorized }
            return enqueue(.events, Self.eventLines(request.body), responder)
        case "/billing/entitlements":
            if let refused = only("GET") { return refused }
            guard apiKey.admits(request) else { return Self.unauthorized }
            guard let user = request.queryValue("user"), !user.isEmpty else { return ServedJSON.error(400, "entitlements needs ?user=U") }
            return entitlements(user)
        case "/reports/counts", "/reports/funnel", "/reports/revenue", "/reports/metrics":
            if let refused = only("GET") { return refused }
            guard apiKey.admits(request) else { return Self.unauthorized }
            var args = [String(path.dropFirst("/reports/".count))]
            let names = ["at", "from", "to", "by", "by-segment", "as-known-at", "within", "lifetime"]
            if let refused = Self.refusedQuery(request, takes: names) { return refused }
            // The command's own options (one a command does not take is its usage error: 400).
            for name in names {
                if let v = request.queryValue(name) { args += ["--" + name, v] }
            }
            return command(args)
        default:
            guard path.hasPrefix("/users/") else { return nil }
            let parts = path.dropFirst("/users/".count).split(separator: "/", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1] == "state" || parts[1] == "history" else { return nil }
            if let refused = only("GET") { return refused }
            guard apiKey.admits(request) else { return Self.unauthorized }
            if let refused = Self.refusedQuery(request, takes: parts[1] == "state" ? ["at"] : []) { return refused }
            var args = [String(parts[1]), "--user", String(parts[0])]
            if parts[1] == "state", let at = request.queryValue("at") { args += ["--at", at] }
            return command(args)
        }
    }

    /// `400` for a query parameter the route does not take, or one given twice (as the command
    /// line refuses an unknown or repeated option); nil when the query is fine.
    static func refusedQuery(_ request: HTTPRequest, takes names: [String]) -> HTTPResponse? {
        var seen = Set<String>()
        for (name, _) in request.query {
            guard names.contains(name) else {
                let takes = names.isEmpty ? "no parameters" : names.joined(separator: ", ")
                return ServedJSON.error(400, "unknown parameter '\(name)' for \(request.path) (it takes \(takes))")
            }
            guard seen.insert(name).inserted else { return ServedJSON.error(400, "parameter '\(name)' given twice") }
        }
        return nil
    }

    static let unauthorized = HTTPResponse(status: 401, json: #"{"error":"unauthorized"}"#)

    private func enqueue(_ kind: WriteQueue.Job.Kind, _ lines: [[UInt8]], _ responder: HTTPResponder) -> HTTPResponse?? {
        guard !lines.isEmpty else { return .some(ServedJSON.error(400, "the body is empty")) }
        writes.submit(WriteQueue.Job(kind: kind, lines: lines, responder: responder))
        return .some(nil)
    }

    /// A JSON body as one line: CR and LF are whitespace between JSON tokens, and cannot stand
    /// unescaped inside a JSON string, so turning them into spaces keeps the body's meaning.
    static func oneLine(_ body: [UInt8]) -> [UInt8] {
        body.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 }
    }

    /// `POST /events`: one JSON object (however laid out), or JSON Lines.
    static func eventLines(_ body: [UInt8]) -> [[UInt8]] {
        if let object = try? JSONSerialization.jsonObject(with: Data(body)), object is [String: Any] { return [oneLine(body)] }
        return body.split(separator: 0x0A, omittingEmptySubsequences: true).map(Array.init)
    }

    /// The tool's own command, in process, against this log and profile, as JSON.
    private func command(_ args: [String]) -> HTTPResponse {
        let run = InProcessCommand.run(args + ["--log", directory, "--profile", profileArgument, "--format", "json"])
        switch run.status {
        case 0: return ServedJSON.printed(run.out)
        case 2: return ServedJSON.error(400, Self.reason(run.err))
        default: return ServedJSON.error(500, Self.reason(run.err))
        }
    }

    /// The command's error line without its `replay-tool NAME: ` prefix.
    static func reason(_ err: String) -> String {
        let line = err.split(separator: "\n").first.map(String.init) ?? "failed"
        guard let colon = line.range(of: ": ") else { return line }
        return String(line[colon.upperBound...])
    }

    /// Seed 002's entitlements answer, as of now: the kept answer while it is still true, else
    /// one built from a kept read handle (the user's records read through the indexes, each
    /// checked) and kept until the user's next timer or a commit that touches the user.
    private func entitlements(_ user: String) -> HTTPResponse {
        do {
            try ValueRanges.checkUser(user, "user")
        } catch {
            return ServedJSON.error(400, error.reason)
        }
        let now = Common.now()
        if let kept = answers.answer(for: user, at: now) { return kept }
        let generation = answers.generation
        do {
            let decider = PlanDecider(profile: profile)
            let history = try reads.with { log in try Replay.history(log: log, user: user, options: ReplayOptions(profile: profile, asOf: now)) }
            let state = history.state(decider, at: now)
            let response = ServedJSON.ok(Self.entitlementsJSON(decider.view(state, at: now)))
            answers.keep(.init(answer: response, validUntil: history.nextChange(after: now, state: state, decider: decider), sources: history.sources),
                         for: user, builtAt: generation)
            return response
        } catch {
            return ServedJSON.error(500, "\(error)")
        }
    }

    /// `{"plan","status","expiresAt","features"}`: the plan is the tier; the status says where the
    /// plan stands (docs/serve.md); the features are the tier's limits.
    static func entitlementsJSON(_ v: PlanView) -> JSON {
        let status: String
        switch v.planState {
        case .trial: status = "trial"
        case .pro: status = v.autoRenew == false ? "cancelled" : "active"
        case .proGrace: status = v.graceReason == .billing ? "billing_grace" : "grace"
        case .free: status = v.product == nil && v.expiresAt == nil ? "free" : "expired"
        case .guest: status = "free"
        }
        return .object([
            ("plan", .string(v.tier)), ("status", .string(status)), ("expiresAt", .time(v.expiresAt)),
            ("features", .object(v.limits.sorted { $0.key < $1.key }.map { ($0.key, QueryCommands.limitJSON($0.value)) })),
        ])
    }
}
