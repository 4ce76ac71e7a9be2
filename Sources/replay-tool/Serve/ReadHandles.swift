import EventStore
import Projections
import Synchronization

/// Read handles of the log kept open between requests, one per concurrent reader: a request
/// takes one, brings it up to the committed head (`refresh`, which reads only what was appended
/// since) and gives it back. Readers never take the writer's lock, so they never wait for a commit.
final class ReadHandles: Sendable {
    /// An `EventLog` is one handle for one thread at a time: the pool hands each to one reader.
    private struct Handle: @unchecked Sendable { let log: EventLog }
    private let idle = Mutex<[Handle]>([])
    let directory: String

    init(directory: String) { self.directory = directory }

    /// Runs `body` with a handle caught up with the log.
    func with<T>(_ body: (EventLog) throws -> T) throws -> T {
        let taken = idle.withLock { $0.popLast() }
        let log: EventLog
        if let taken {
            log = taken.log
            try log.refresh()
        } else {
            var options = EventLog.Options()
            options.secondaryKeys = Replay.secondaryKeys
            log = try EventLog(directory: directory, access: .read, options: options)
        }
        let result = try body(log)
        idle.withLock { $0.append(Handle(log: log)) }
        return result
    }
}
