import Dispatch
import EventStore
import Foundation
import HTTPServer
import Projections
import StoreSignature
import SubscriptionDomain
import Platform
import Reports

/// `serve`: the ledger's network face (docs/serve.md): RevenueCat's webhook, Apple's signed
/// notifications and canonical events in, acknowledged only once durable; entitlements, a
/// user's state and history, and the reports out, while commits go on.
enum ServeCommand {
    static let spec = CommandSpec(
        name: "serve", summary: "serve the ledger over HTTP: webhooks acknowledged once durable, entitlements, states and reports",
        positionals: nil,
        options: [Common.log, Common.profile,
                  OptionSpec(name: "--listen", value: "HOST:PORT", help: "where to accept connections (port 0: a free port); default 127.0.0.1:8080"),
                  OptionSpec(name: "--webhook-secret-file", value: "FILE", help: "the RevenueCat webhook's bearer token (trailing newline ignored)"),
                  OptionSpec(name: "--api-key-file", value: "FILE", help: "the bearer token of /events, /billing/entitlements, /users and /reports"),
                  OptionSpec(name: "--postgres", value: "CONNINFO", help: "keep the profile's seed tables in step after each commit (as sync does)"),
                  AppleSignature.rootOption,
                  OptionSpec(name: "--max-connections", value: "N", help: "connections served at once; one more is answered 503 (default 512)"),
                  OptionSpec(name: "--scrub-every", value: "SECONDS", help: "verify what was appended since the last verify this often (default 3600; 0: never)")],
        details: """
        The first line on stdout is {"listening":"HOST:PORT"} once connections are accepted. A write answers 200 only
        once its event is committed (data and committed head synced); concurrent writes share one commit. One JSON line
        per request on stderr (method, path, status, microseconds, bytes): never a body or a credential.
        SIGTERM or SIGINT: no new connections, requests in flight finish, queued writes commit, exit 0.
        """
    ) { a in try run(a) }

    static func run(_ a: ParsedArguments) throws -> Int32 {
        let (host, port) = try listen(a.value("--listen") ?? "127.0.0.1:8080")
        guard let secretFile = a.value("--webhook-secret-file") else { throw ToolError.usage("serve needs --webhook-secret-file FILE") }
        guard let keyFile = a.value("--api-key-file") else { throw ToolError.usage("serve needs --api-key-file FILE") }
        let webhookSecret = try Credential(path: secretFile, option: "--webhook-secret-file")
        let apiKey = try Credential(path: keyFile, option: "--api-key-file")
        // One token for both would let RevenueCat's secret read every user's data.
        guard !webhookSecret.sameToken(as: apiKey) else { throw ToolError.usage("--webhook-secret-file and --api-key-file hold the same token: give each its own") }
        let scrubEvery = try Common.number(a, "--scrub-every", in: 0...UInt64(Int32.max)) ?? 3600
        let profileArgument = a.value("--profile") ?? "handz"
        let profile = try Common.profile(profileArgument)
        let directory = Common.logDirectory(a)
        let log = try Common.openLog(a, access: .write)
        try Common.checkApp(profile, directory: directory)
        try log.declareApp(profile.appDeclaration)
        let opener = AppleSignature.opener(verifier: AppleJWSVerifier(trustedRoots: try AppleSignature.roots(a)))
        let health = HealthState()
        let sync = a.value("--postgres").map { PostgresFollower(directory: directory, profile: profileArgument, conninfo: $0, health: health) }
        var committed: (@Sendable () -> Void)?
        if let sync { committed = { sync.poke() } }
        let answers = UserAnswerCache<HTTPResponse>()
        let writes = WriteQueue(log: log, profile: profile, opener: opener, answers: answers, committed: committed)
        let service = LedgerService(directory: directory, profile: profile, profileArgument: profileArgument, webhookSecret: webhookSecret,
                                    apiKey: apiKey, writes: writes, reads: ReadHandles(directory: directory, commits: { writes.commits }), health: health, answers: answers)
        var configuration = HTTPServer.Configuration(host: host, port: port)
        if let n = try Common.number(a, "--max-connections", in: 1...100_000) { configuration.maxConnections = Int(n) }
        let requestLines = RequestLogLines()
        configuration.requestLog = { entry in requestLines.add(entry) }
        configuration.requestLogFlush = { requestLines.flush() }
        configuration.quickAnswer = { request in service.quickAnswer(request) }
        let server = HTTPServer(configuration: configuration) { request, responder in service.handle(request, responder) }
        let stop = try PlatformStream.StopSignals.install()
        do { try server.start() } catch { throw ToolError.input("cannot listen on \(host):\(port): \(error)") }
        writes.start()
        sync?.start()
        Scrubber(directory: directory, every: Int(scrubEvery), health: health).start()
        // Stops the server at SIGTERM or SIGINT.
        let watcher = Thread {
            // A signal, or a wait that fails (the pipe gone): either way the server stops.
            while case .some(let ready) = try? PlatformStream.wait(input: stop.descriptor, stop: nil, timeoutMilliseconds: -1, path: "(signals)"),
                  ready != .input {}
            _ = stop.take()
            server.stop()
        }
        watcher.start()
        // Straight to standard output, not through Console: the PostgreSQL follower may be running
        // `sync` in process at this moment, and the console's output is then that command's.
        let listening = Array(((server.listeningLine ?? #"{"listening":"\#(host):\#(port)"}"#) + "\n").utf8)
        do {
            try listening.withUnsafeBytes { try StandardStream.writeAll(1, $0) }
        } catch let e as SystemError {
            throw ToolError.input("cannot say where it listens: \(e.description)")
        }
        do { try server.run() } catch { throw ToolError.input("the server stopped: \(error)") }
        writes.stop()
        sync?.stop()
        return 0
    }

    /// `HOST:PORT` (an IPv6 host in brackets); a port from 0 to 65535.
    static func listen(_ text: String) throws -> (String, UInt16) {
        guard let colon = text.lastIndex(of: ":") else { throw ToolError.usage("--listen '\(text)' is not HOST:PORT") }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let portText = text[text.index(after: colon)...]
        guard !host.isEmpty, portText.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let port = UInt16(portText) else {
            throw ToolError.usage("--listen '\(text)' is not HOST:PORT with a port from 0 to 65535")
        }
        return (host, port)
    }
}
