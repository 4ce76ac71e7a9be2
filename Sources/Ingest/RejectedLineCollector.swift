/// A `RejectedLineSink` that keeps every rejected line and its reason in memory: for tests and
/// small inputs (the command line writes them to a file instead).
public struct RejectedLineCollector: RejectedLineSink {
    /// Each rejected line: where and why.
    public private(set) var rejections: [EventImporter.Rejection] = []
    /// The bytes of each rejected line, in the order of `rejections`.
    public private(set) var lines: [[UInt8]] = []
    /// The size of each piece `write` was given, in order: a long line comes in several.
    public private(set) var pieceSizes: [Int] = []
    var current: [UInt8] = []

    public init() {}

    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        current.append(contentsOf: bytes)
        pieceSizes.append(bytes.count)
    }

    public mutating func reject(_ rejection: EventImporter.Rejection) throws {
        rejections.append(rejection)
        lines.append(current)
        current = []
    }
}
