import Testing
@testable import Platform

/// A value worked on by a second thread, one piece of work at a time: the work runs in the order
/// submitted, the caller sees each piece's result once it is settled, and nothing the work held is
/// still held when `settle` returns.
@Suite struct SecondThreads {
    /// An object whose release is observed through a weak reference.
    final class Held: Sendable {}

    @Test func workRunsInTheOrderSubmittedAndItsResultIsSeenOnceSettled() {
        let thread = SecondThread([Int](), label: "test.second-thread")
        for i in 0..<500 {
            thread.settle()
            thread.submit { $0.append(i) }
            #expect(thread.busy)
            if i % 7 == 0 { #expect(thread.withValue { $0.last } == i) }
        }
        #expect(thread.withValue { $0 } == Array(0..<500))
        #expect(!thread.busy)
    }

    @Test func settlingWithNothingInFlightReturnsAtOnceAndLeavesTheValue() {
        let thread = SecondThread(7, label: "test.second-thread")
        thread.settle()
        thread.settle()
        #expect(thread.withValue { $0 } == 7)
    }

    @Test func nothingTheWorkHeldIsStillHeldWhenSettleReturns() {
        let thread = SecondThread(0, label: "test.second-thread")
        for round in 0..<200 {
            weak var watched: Held?
            do {
                // Held by the work's block alone once this scope ends.
                let held = Held()
                watched = held
                thread.submit { [held] value in value += ObjectIdentifier(held) == ObjectIdentifier(held) ? 1 : 0 }
            }
            thread.settle()
            #expect(watched == nil, "round \(round): the work's block still held what it captured")
        }
        #expect(thread.withValue { $0 } == 200)
    }
}
