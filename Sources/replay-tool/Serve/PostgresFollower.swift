import Dispatch
import EventStore
import Foundation
import Synchronization
import Platform
import Reports

/// `serve --postgres`: after each commit, the profile's seed tables are brought up to the log by
/// the `sync` command (its exactly-once checkpoint), on a thread of their own; when PostgreSQL is
/// down the webhooks are still acknowledged (the ledger is the record) and the sync is tried
/// again each second until it catches up. `/healthz` says where it stands.
final class PostgresFollower: Sendable {
    let directory: String
    let profile: String
    let conninfo: String
    let health: HealthState
    private let wake = DispatchSemaphore(value: 0)
    private let stopping = Mutex(false)

    init(directory: String, profile: String, conninfo: String, health: HealthState) {
        self.directory = directory
        self.profile = profile
        self.conninfo = conninfo
        self.health = health
    }

    /// Asks for a sync (after a commit).
    func poke() { wake.signal() }

    func start() {
        let thread = Thread { [self] in
            var initialized = false
            var behind = true
            while !stopping.withLock({ $0 }) {
                if !behind { wake.wait() }
                if stopping.withLock({ $0 }) { break }
                let run = InProcessCommand.run(["sync", "--log", directory, "--profile", profile, "--postgres", conninfo, "--format", "json"]
                                               + (initialized ? [] : ["--init"]))
                if run.status == 0 {
                    initialized = true
                    behind = false
                    health.setPostgres("in step")
                    // One line on stderr beside the request lines: the log position the tables now reflect.
                    let position = (try? JSONSerialization.jsonObject(with: Data(run.out)) as? [String: Any])?["position"] as? Int
                    Self.say(.object([("postgres", .string("in step")), ("position", position.map { .int($0) } ?? .null)]))
                } else {
                    behind = true
                    health.setPostgres("behind: " + LedgerService.reason(run.err))
                    Self.say(.object([("postgres", .string("behind")), ("error", .string(LedgerService.reason(run.err)))]))
                    _ = wake.wait(timeout: .now() + 1)
                }
            }
        }
        thread.name = "ledger-postgres"
        thread.start()
    }

    /// A line on stderr (as the request lines: a line that cannot be written is dropped).
    static func say(_ value: JSON) {
        var line = Array(value.rendered.utf8)
        line.append(0x0A)
        try? line.withUnsafeBytes { try StandardStream.writeAll(2, $0) }
    }

    func stop() {
        stopping.withLock { $0 = true }
        wake.signal()
    }
}
