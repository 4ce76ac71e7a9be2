import EventStore
import Projections
import Synchronization

/// Read handles of the log kept open between requests, one per concurrent reader: a request
/// takes one, brings it up to the committed head (`refresh`, which reads only what was appended
/// since) and gives it back. Readers never take the writer's lock, so they never wait for a commit.
/// With `commits` (the write queue's count of commits that appended, its own and, within 100 ms,
/// another process's), a handle that has seen the current count is not refreshed: nothing was
/// appended since.
final class ReadHandles: Sendable {
    /// An `EventLog` is one handle for one thread at a time: the pool hands each to one reader.
    private struct Handle: @unchecked Sendable {
        let log: EventLog
        /// `commits` when the handle was last brought up to the head.
        let seen: UInt64?
    }
    private let idle = Mutex<[Handle]>([])
    let directory: String
    private let commits: (@Sendable () -> UInt64)?

    init(directory: String, commits: (@Sendable () -> UInt64)? = nil) {
        self.directory = directory
        self.commits = commits
    }

    /// Runs `body` with a handle caught up with the log.
    func with<T>(_ body: (EventLog) throws -> T) throws -> T {
        // Read before the refresh: a commit counted after it is caught up by the next request.
        let count = commits?()
        let taken = idle.withLock { $0.popLast() }
        let log: EventLog
        if let taken {
            log = taken.log
            if count == nil || taken.seen != count { try log.refresh() }
        } else {
            var options = EventLog.Options()
            options.secondaryKeys = Replay.secondaryKeys
            log = try EventLog(directory: directory, access: .read, options: options)
        }
        let result = try body(log)
        idle.withLock { $0.append(Handle(log: log, seen: count)) }
        return result
    }
}
