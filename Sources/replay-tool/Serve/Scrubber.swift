import Foundation
import EventStore

/// `serve`'s background scrub: at start, then every `every` seconds, `verify --since-last`
/// (what was appended since the last intact verify), its result in `/healthz`.
struct Scrubber: Sendable {
    let directory: String
    let every: Int
    let health: HealthState

    func start() {
        guard every > 0 else { health.setScrub("off"); return }
        let thread = Thread {
            while true {
                // A mark that cannot be read makes this scrub a full verify: more checking, never less.
                let since = (try? VerifiedMark.read(directory: directory)) ?? nil
                let report = LogVerifier.verify(directory: directory, since: since)
                if report.isIntact {
                    do {
                        try VerifiedMark.write(report.head, directory: directory)
                        health.setScrub("intact through position \(report.head.position)")
                    } catch {
                        health.setScrub("intact through position \(report.head.position); the mark could not be recorded (\(error)): the next scrub is a full verify")
                    }
                } else {
                    health.setScrub("DAMAGED: \(report.damage?.description ?? "unknown")")
                }
                Thread.sleep(forTimeInterval: TimeInterval(every))
            }
        }
        thread.name = "ledger-scrub"
        thread.start()
    }
}
