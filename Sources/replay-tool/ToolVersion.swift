import EventStore
import Projections
import ProjectionStorage
import Reports

/// What `replay-tool --version` prints: the package's version and the versions of the files it
/// reads and writes, so that a script or a bug report names exactly what ran.
enum ToolVersion {
    /// The package's version: raised with every release; its major part only when a command,
    /// flag, JSON key or exit code would change meaning (the interface is otherwise only extended).
    static let package = "1.4.0"

    static var text: String {
        "replay-tool \(package) (log format \(EventLog.formatVersion), kept projection code \(ProjectionStore.codeVersion))\n"
    }
}
