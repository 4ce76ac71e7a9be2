import Foundation

/// Two pieces of work at once, on the machine's cores (`diff` folds its two rule sets so).
enum Parallel {
    /// Runs `a` and `b` at the same time and returns both results; an error of either is thrown (a's first).
    static func both<A, B>(_ a: () throws -> A, _ b: () throws -> B) throws -> (A, B) {
        let slots = Slots<A, B>()
        withoutActuallyEscaping(a) { a in
            withoutActuallyEscaping(b) { b in
                let work = Work(a: a, b: b)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 { slots.set(first: Result(catching: work.a)) } else { slots.set(second: Result(catching: work.b)) }
                }
            }
        }
        return try slots.take()
    }

    /// The two closures, called once each, each on one thread, both done before `both` returns.
    private struct Work<A, B>: @unchecked Sendable {
        let a: () throws -> A
        let b: () throws -> B
    }

    /// The two results, each set by its thread under the lock.
    private final class Slots<A, B>: @unchecked Sendable {
        private let lock = NSLock()
        private var first: Result<A, any Error>?
        private var second: Result<B, any Error>?

        func set(first r: Result<A, any Error>) { lock.withLock { first = r } }
        func set(second r: Result<B, any Error>) { lock.withLock { second = r } }
        func take() throws -> (A, B) {
            let (a, b) = lock.withLock { (first!, second!) }
            return (try a.get(), try b.get())
        }
    }
}
