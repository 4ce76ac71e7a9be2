/// Where a `ParquetWriter` sends the file's bytes, in order; the integrator connects it to a file.
/// A thrown error stops the writer (`ParquetError.sinkFailed` carries it as `underlying`).
public protocol ParquetSink {
    /// Takes the next bytes of the file. The buffer is valid only during the call.
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A sink that keeps the whole file in memory (tests, small tables).
public struct ParquetByteSink: ParquetSink, Sendable {
    /// Every byte written so far.
    public private(set) var bytes: [UInt8] = []

    /// An empty sink.
    public init() {}

    /// Appends `bytes` to `bytes`.
    public mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        self.bytes.append(contentsOf: bytes)
    }
}
