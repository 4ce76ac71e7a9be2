import Foundation

/// Two pieces of work at once, on the machine's cores (`diff` folds its two rule sets so; the
/// time index sorts its two halves so).
public enum Parallel {
    /// Runs `a` and `b` at the same time and returns both results; an error of either is thrown (a's first).
    public static func both<A, B, E: Error>(_ a: () throws(E) -> A, _ b: () throws(E) -> B) throws(E) -> (A, B) {
        let slots = Slots<A, B, E>()
        withoutActuallyEscaping(a) { a in
            withoutActuallyEscaping(b) { b in
                let work = Work<A, B, E>(a: a, b: b)
                DispatchQueue.concurrentPerform(iterations: 2) { i in
                    if i == 0 { slots.set(first: Result { () throws(E) -> A in try work.a() }) } else { slots.set(second: Result { () throws(E) -> B in try work.b() }) }
                }
            }
        }
        return try slots.take()
    }

    /// The two closures, called once each, each on one thread, both done before `both` returns.
    private struct Work<A, B, E: Error>: @unchecked Sendable {
        let a: () throws(E) -> A
        let b: () throws(E) -> B
    }

    /// The two results, each set by its thread under the lock.
    private final class Slots<A, B, E: Error>: @unchecked Sendable {
        private let lock = NSLock()
        private var first: Result<A, E>?
        private var second: Result<B, E>?

        func set(first r: Result<A, E>) { lock.withLock { first = r } }
        func set(second r: Result<B, E>) { lock.withLock { second = r } }
        func take() throws(E) -> (A, B) {
            let (a, b) = lock.withLock { (first!, second!) }
            return (try a.get(), try b.get())
        }
    }
}
