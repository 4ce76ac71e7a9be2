import Foundation
import EventStore
import Platform

/// One walk per partition of the users, on the cores: each from the event cache when it is ready
/// (a cache that fails to read is removed and that partition is read from the log instead), else
/// from the log through `head`. What the time index and the analysts' model build on.
enum PartitionedWalk {
    /// The partitions' results in partition order; the first failure is thrown.
    static func run<Walk>(directory: String, head: LogHead, cached: Bool, partitions: Int,
                          cache: (_ partition: Int) throws -> Walk,
                          log: (_ log: EventLog, _ partition: Int) throws -> Walk) throws -> [Walk] {
        let results = Results<Walk>(count: partitions)
        withoutActuallyEscaping(cache) { cache in
            withoutActuallyEscaping(log) { log in
                let work = UncheckedWork(cache: cache, log: log)
                DispatchQueue.concurrentPerform(iterations: partitions) { p in
                    do {
                        if cached {
                            do {
                                results.set(p, .success(try work.cache(p)))
                                return
                            } catch {
                                try? DurableFile.remove(path: EventCache.path(directory))
                            }
                        }
                        let handle = try ProjectionStore.openForScans(directory, through: head.position)
                        results.set(p, .success(try work.log(handle, p)))
                    } catch {
                        results.set(p, .failure(error))
                    }
                }
            }
        }
        return try results.takeAll().map { try $0.get() }
    }

    /// The two walks, handed to the partitions' threads (each partition reads only its own state).
    private struct UncheckedWork<Walk>: @unchecked Sendable {
        let cache: (Int) throws -> Walk
        let log: (EventLog, Int) throws -> Walk
    }

    /// Each partition's result, set by its thread.
    private final class Results<Walk>: @unchecked Sendable {
        private let lock = NSLock()
        private var results: [Result<Walk, any Error>?]
        init(count: Int) { results = Array(repeating: nil, count: count) }
        func set(_ i: Int, _ r: Result<Walk, any Error>) { lock.withLock { results[i] = r } }
        func takeAll() -> [Result<Walk, any Error>] {
            lock.withLock {
                defer { results = [] }
                return results.map { $0! }
            }
        }
    }
}
