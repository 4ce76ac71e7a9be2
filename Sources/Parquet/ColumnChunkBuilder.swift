/// One column of the row group being buffered: the current data page's raw definition levels and
/// values (PLAIN bytes or dictionary indices), the pages already closed, the chunk's dictionary
/// and statistics. Rows arrive already checked against the column's type by the writer.
struct ColumnChunkBuilder {
    /// The page and dictionary limits of the writer's options.
    struct Limits {
        var pageBytes: Int
        var pageRows: Int
        var dictionaryBytes: Int
        var dictionaryEntries: Int
        var statisticsBytes: Int
    }

    let column: ParquetColumn
    let limits: Limits

    // The current data page.
    var levels: [UInt8] = []
    var values = ByteBuffer()
    var indices: [UInt32] = []
    var pendingBits: UInt8 = 0
    var pendingBitCount = 0
    var pageRows = 0

    // The chunk.
    var pages = ByteBuffer()
    var dictionaryEncodedPages = 0
    var plainPages = 0
    var rows: Int64 = 0
    var statistics = ColumnStatistics()
    /// True while values go to the dictionary; false from the start for plain columns, and after
    /// a fallback until the chunk is finished.
    var encodesDictionary: Bool
    var strings = ByteDictionary()
    var integers = Int64Dictionary()

    // Scratch space reused page after page.
    var levelScratch = ByteBuffer()
    var indexScratch = ByteBuffer()

    init(column: ParquetColumn, limits: Limits) {
        self.column = column
        self.limits = limits
        encodesDictionary = column.dictionary
    }

    /// Encoded bytes held for the row group: closed pages, the dictionary, and an estimate of the
    /// current page.
    var bufferedBytes: Int {
        pages.count + values.count + levels.count / 8 + indices.count * 4 + strings.plain.count + integers.plain.count
    }

    // MARK: appending

    mutating func appendNull() {
        levels.append(0)
        statistics.addNull()
        endRow()
    }

    mutating func append(_ string: String) {
        if encodesDictionary {
            switch strings.lookUp(string, entryLimit: limits.dictionaryEntries, byteLimit: limits.dictionaryBytes) {
            case .existing(let index):
                appendIndex(index)
                return
            case .added(let index, let bytes):
                statistics.addBytes(bytes, of: strings.plain)
                appendIndex(index)
                return
            case .full:
                fallBackToPlain()
            }
        }
        if column.nullable { levels.append(1) }
        let start = values.count + 4
        values.appendLengthPrefixedUTF8(string)
        statistics.addBytes(start..<values.count, of: values)
        endRow()
    }

    mutating func append(_ value: Int64) {
        statistics.add(value)
        if encodesDictionary {
            if let index = integers.lookUp(value, entryLimit: limits.dictionaryEntries, byteLimit: limits.dictionaryBytes) {
                appendIndex(index)
                return
            }
            fallBackToPlain()
        }
        if column.nullable { levels.append(1) }
        values.appendLittleEndian(value)
        endRow()
    }

    mutating func append(_ value: Bool) {
        if column.nullable { levels.append(1) }
        statistics.add(value)
        if value { pendingBits |= 1 << UInt8(pendingBitCount) }
        pendingBitCount += 1
        if pendingBitCount == 8 {
            values.append(pendingBits)
            pendingBits = 0
            pendingBitCount = 0
        }
        endRow()
    }

    private mutating func appendIndex(_ index: UInt32) {
        if column.nullable { levels.append(1) }
        indices.append(index)
        endRow()
    }

    private mutating func endRow() {
        pageRows += 1
        rows += 1
        if pageRows >= limits.pageRows {
            closePage()
        } else if encodesDictionary {
            // The indices' encoded size, at the bit width the dictionary has reached.
            let entries = column.type == .string ? strings.count : integers.count
            let width = RunLengthHybrid.bitWidth(forMax: UInt32(max(entries, 1) - 1))
            if (indices.count * width + 7) / 8 >= limits.pageBytes { closePage() }
        } else if values.count >= limits.pageBytes {
            closePage()
        }
    }

    /// The dictionary is full: the page so far (without the row being appended) keeps its indices,
    /// the rest of the chunk is PLAIN.
    private mutating func fallBackToPlain() {
        closePage()
        encodesDictionary = false
    }
}
