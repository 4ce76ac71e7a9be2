import Synchronization

/// Answers one request, from any thread, at any time (after a group commit, say).
///
/// The first `respond(_:)` counts; later calls return false and send nothing. A responder
/// dropped without responding answers 500, so a forgotten path never leaves a client hanging.
/// Responding after the client went away, or after the server stopped, is harmless.
public final class HTTPResponder: Sendable {
    private let connection: UInt64
    private let queue: CompletionQueue
    private let answered = Atomic<Bool>(false)

    init(connection: UInt64, queue: CompletionQueue) {
        self.connection = connection
        self.queue = queue
    }

    /// Sends `response` for this request. Returns false (sending nothing) if it was already answered.
    @discardableResult
    public func respond(_ response: HTTPResponse) -> Bool {
        guard answered.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged else {
            return false
        }
        queue.post(Completion(connection: connection, response: response))
        return true
    }

    /// True once `respond(_:)` has been called.
    public var hasResponded: Bool { answered.load(ordering: .acquiring) }

    deinit {
        if !answered.load(ordering: .acquiring) {
            queue.post(Completion(connection: connection, response: HTTPResponse(status: 500, text: "the handler did not respond\n")))
        }
    }
}
