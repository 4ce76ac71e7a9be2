import EventStore
import HTTPServer
import Synchronization
import Reports

/// What `/healthz` says beside the committed head: the background scrub's last result and, with
/// `--postgres`, whether the tables are in step.
final class HealthState: Sendable {
    private let state = Mutex<(scrub: String, postgres: String?)>(("not run yet", nil))

    func setScrub(_ s: String) { state.withLock { $0.scrub = s } }
    func setPostgres(_ s: String) { state.withLock { $0.postgres = s } }

    /// `{"position","hash","scrub"[,"postgres"]}` from a read handle caught up with the log.
    func answer(reads: ReadHandles) -> HTTPResponse {
        do {
            let head = try reads.with { $0.head }
            let (scrub, postgres) = state.withLock { ($0.scrub, $0.postgres) }
            var fields: [(String, JSON)] = [("position", .int(Int(head.position))), ("hash", .string(head.hash.description)), ("scrub", .string(scrub))]
            if let postgres { fields.append(("postgres", .string(postgres))) }
            return ServedJSON.ok(.object(fields))
        } catch {
            return ServedJSON.error(500, "the log cannot be read: \(error)")
        }
    }
}
