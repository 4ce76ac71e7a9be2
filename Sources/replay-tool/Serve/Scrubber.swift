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
                let since = try? VerifiedMark.read(directory: directory)
                let report = LogVerifier.verify(directory: directory, since: since ?? nil)
                if report.isIntact {
                    try? VerifiedMark.write(report.head, directory: directory)
                    health.setScrub("intact through position \(report.head.position)")
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
