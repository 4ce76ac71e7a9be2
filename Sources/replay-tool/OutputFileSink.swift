import EventStore
import Parquet
import Platform

/// A Parquet sink writing through an `OutputFile` (a temporary file renamed over the name only
/// when the table is whole) in pieces of about 1 MiB.
struct OutputFileSink: ParquetSink {
    let file: OutputFile
    private var buffer: [UInt8] = []
    static let pieceSize = 1 << 20

    init(_ file: OutputFile) {
        self.file = file
        buffer.reserveCapacity(Self.pieceSize)
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= Self.pieceSize { try flush() }
    }

    /// Writes what is buffered to the temporary file.
    mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try file.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
