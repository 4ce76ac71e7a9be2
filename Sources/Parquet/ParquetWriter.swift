/// A streaming Parquet file writer: rows in, one at a time; row groups out to a sink whenever the
/// buffered group reaches `options.rowGroupByteLimit` bytes or `options.rowGroupRowLimit` rows;
/// the footer at `finish`. The file is `PAR1`, the row groups' column chunks (an optional
/// dictionary page, then v1 data pages, uncompressed), the Thrift compact footer, its 4-byte
/// little-endian length, `PAR1`.
///
/// ```swift
/// var writer = try ParquetWriter(schema: schema, sink: fileSink)
/// var row: [ParquetValue] = []            // reuse one array: no allocation per row
/// for event in events {
///     row.removeAll(keepingCapacity: true)
///     row.append(.string(event.id)); row.append(.int64(event.time.microseconds))
///     try writer.append(row: row)
/// }
/// try writer.finish(keyValueMetadata: [ParquetKeyValue("ledger.head.position", "43")])
/// ```
/// A copy of a writer is a second writer over a copy of the sink: keep one.
public struct ParquetWriter<Sink: ParquetSink> {
    /// The table's columns.
    public let schema: ParquetSchema
    /// The limits and labels in force.
    public let options: ParquetWriterOptions
    /// The sink, as the writer leaves it (an in-memory sink's bytes after `finish`).
    public private(set) var sink: Sink
    /// Bytes handed to the sink so far: the file offset the next write starts at.
    public private(set) var bytesWritten: Int64 = 0
    /// Rows appended so far, including those still buffered.
    public private(set) var rowCount: Int64 = 0
    /// Row groups written so far.
    public var rowGroupCount: Int { rowGroups.count }

    private var rowGroup: RowGroupBuilder
    private let physicalTypes: [Format.PhysicalType]
    private var rowGroups: [RowGroup] = []
    private var state = State.open

    private enum State { case open, finished, failed }

    static var magic: [UInt8] { Array("PAR1".utf8) }

    /// Checks `options` and writes the leading `PAR1` to `sink`.
    public init(schema: ParquetSchema, sink: Sink, options: ParquetWriterOptions = ParquetWriterOptions()) throws(ParquetError) {
        try options.validate()
        self.schema = schema
        self.options = options
        self.sink = sink
        rowGroup = RowGroupBuilder(schema: schema, options: options)
        physicalTypes = schema.elements.dropFirst().map { $0.type ?? .byteArray }
        try write(ByteBuffer(ParquetWriter.magic))
    }

    /// Appends one row, a value per column in schema order. A row that does not fit the schema
    /// throws `invalidRow` and is not added (the writer stays usable); a sink failure while a
    /// full row group is written throws `sinkFailed` and closes the writer.
    public mutating func append(row: [ParquetValue]) throws(ParquetError) {
        try requireOpen()
        try rowGroup.append(row, fileRow: rowCount)
        rowCount += 1
        if rowGroup.rowCount >= options.rowGroupRowLimit || rowGroup.bufferedBytes >= options.rowGroupByteLimit {
            try flushRowGroup()
        }
    }

    /// Writes the buffered rows as a row group now (nothing when none are buffered).
    public mutating func flushRowGroup() throws(ParquetError) {
        try requireOpen()
        let rows = rowGroup.rowCount
        guard rows > 0 else { return }
        let groupStart = bytesWritten
        var chunks: [ColumnChunk] = []
        chunks.reserveCapacity(schema.columns.count)
        for i in schema.columns.indices {
            let finished = rowGroup.finishChunk(i)
            let chunkStart = bytesWritten
            var dictionaryOffset: Int64?
            if let page = finished.dictionaryPage {
                dictionaryOffset = chunkStart
                try write(page)
            }
            let dataOffset = bytesWritten
            try write(finished.dataPages)
            chunks.append(ColumnChunk(
                type: physicalTypes[i],
                encodings: finished.encodings,
                path: [schema.columns[i].name],
                valueCount: finished.valueCount,
                totalSize: bytesWritten - chunkStart,
                dataPageOffset: dataOffset,
                dictionaryPageOffset: dictionaryOffset,
                statistics: finished.statistics,
                pageCounts: finished.pageCounts))
        }
        rowGroups.append(RowGroup(columns: chunks, rowCount: Int64(rows), fileOffset: groupStart, ordinal: rowGroups.count))
    }

    /// Writes the last row group and the footer (`options.keyValueMetadata` then
    /// `keyValueMetadata`, and `options.createdBy`); the writer then takes no more calls.
    public mutating func finish(keyValueMetadata: [ParquetKeyValue] = []) throws(ParquetError) {
        try flushRowGroup()
        let metadata = FileMetaData(
            schema: schema.elements, rowCount: rowCount, rowGroups: rowGroups,
            keyValueMetadata: options.keyValueMetadata + keyValueMetadata,
            createdBy: options.createdBy, leafCount: schema.columns.count)
        var footer = metadata.compactBytes
        guard let length = UInt32(exactly: footer.count) else {
            state = .failed
            throw ParquetError(.tooLarge, "the footer is \(footer.count) bytes, beyond the format's 32-bit length (too many row groups)", offset: bytesWritten)
        }
        footer.appendLittleEndian(length)
        footer.append(ParquetWriter.magic)
        try write(footer)
        state = .finished
    }

    // MARK: private

    private func requireOpen() throws(ParquetError) {
        switch state {
        case .open: return
        case .finished: throw ParquetError(.writerClosed, "the writer was finished; start a new one for another file", offset: bytesWritten)
        case .failed: throw ParquetError(.writerClosed, "an earlier write failed; the file is incomplete and the writer takes no more calls", offset: bytesWritten)
        }
    }

    private mutating func write(_ buffer: ByteBuffer) throws(ParquetError) {
        do {
            try buffer.withUnsafeBytes { try sink.write($0) }
        } catch {
            state = .failed
            throw ParquetError(.sinkFailed, "the sink refused \(buffer.count) bytes: \(error)", offset: bytesWritten, underlying: error)
        }
        bytesWritten += Int64(buffer.count)
    }
}

extension ParquetWriter: Sendable where Sink: Sendable {}

extension ParquetValue {
    /// The case's name, for messages.
    var kindName: String {
        switch self {
        case .null: "null"
        case .string: "string"
        case .int64: "int64"
        case .bool: "bool"
        }
    }
}

extension ParquetColumnType {
    /// The type's name, for messages: `string`, `timestampMicros`, `decimal(18, 6)`.
    var name: String {
        switch self {
        case .string: "string"
        case .int64: "int64"
        case .boolean: "boolean"
        case .timestampMicros: "timestampMicros"
        case .decimal(let precision, let scale): "decimal(\(precision), \(scale))"
        }
    }
}
