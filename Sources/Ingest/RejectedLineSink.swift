/// Where an import puts its rejected lines as it finds them, so that no rejected line is copied or
/// gathered in memory: the command line writes them to DIR/rejected/, tests collect them.
///
/// For each rejected line the importer calls `write` with the line's bytes, in one or more pieces
/// (a line longer than the importer's line limit comes in pieces of at most its buffer size), then
/// `reject` once, naming the line and why. The pieces are the line exactly as read, without its
/// line end (`\n` or `\r\n`). Both may throw; the import then stops (`ImportInterrupted`).
public protocol RejectedLineSink {
    /// The next bytes of the rejected line being read; the buffer is only valid during the call.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
    /// The line whose bytes were just written ends here; it was rejected for `rejection.reason`.
    mutating func reject(_ rejection: EventImporter.Rejection) throws
    /// Makes the lines rejected so far durable: a streaming import (`EventImporter.follow`) calls
    /// it before acknowledging a group that its producer may then forget. Does nothing by default.
    mutating func sync() throws
}

extension RejectedLineSink {
    public mutating func sync() throws {}
}
