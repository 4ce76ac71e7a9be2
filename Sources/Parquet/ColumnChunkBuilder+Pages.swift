/// A column chunk ready to be written: its dictionary page (header and body) if any of its data
/// pages uses it, its data pages, and what the footer says of it.
struct FinishedChunk {
    var dictionaryPage: ByteBuffer?
    var dataPages: ByteBuffer
    var valueCount: Int64
    var statistics: Statistics
    var encodings: [Format.Encoding]
    var pageCounts: [PageEncodingCount]
}

extension ColumnChunkBuilder {
    /// Closes the current page, if it has rows: a v1 data page header, then (nullable columns)
    /// the definition levels as a 4-byte length and the RLE/bit-packed hybrid at bit width 1,
    /// then the values: PLAIN bytes, or the index bit width as one byte and the indices in the
    /// hybrid encoding.
    mutating func closePage() {
        guard pageRows > 0 else { return }
        levelScratch.removeAll()
        if column.nullable {
            levelScratch.appendLittleEndian(UInt32(0))
            RunLengthHybrid.encode(levels, bitWidth: 1, into: &levelScratch)
            levelScratch.setLittleEndian(UInt32(levelScratch.count - 4), at: 0)
        }
        let encoding: Format.Encoding
        if encodesDictionary {
            let count = column.type == .string ? strings.count : integers.count
            let width = RunLengthHybrid.bitWidth(forMax: UInt32(max(count, 1) - 1))
            indexScratch.removeAll()
            indexScratch.append(UInt8(width))
            RunLengthHybrid.encode(indices, bitWidth: width, into: &indexScratch)
            encoding = .rleDictionary
            dictionaryEncodedPages += 1
        } else {
            if pendingBitCount > 0 {
                values.append(pendingBits)
                pendingBits = 0
                pendingBitCount = 0
            }
            encoding = .plain
            plainPages += 1
        }
        let valueBytes = encodesDictionary ? indexScratch : values
        let header = PageHeader(kind: .data(valueCount: Int32(pageRows), encoding: encoding),
                                bodySize: Int32(levelScratch.count + valueBytes.count))
        pages.append(header.compactBytes)
        pages.append(levelScratch)
        pages.append(valueBytes)
        levels.removeAll(keepingCapacity: true)
        values.removeAll()
        indices.removeAll(keepingCapacity: true)
        pageRows = 0
    }

    /// Closes the last page and hands over the chunk, leaving the builder empty for the next row
    /// group (dictionary encoding tried afresh).
    mutating func finishChunk() -> FinishedChunk {
        closePage()
        var dictionaryPage: ByteBuffer?
        var encodings: Set<Format.Encoding> = []
        var counts: [PageEncodingCount] = []
        if column.nullable { encodings.insert(.rle) }
        if dictionaryEncodedPages > 0 {
            let isString = column.type == .string
            let body = isString ? strings.plain : integers.plain
            let entries = isString ? strings.count : integers.count
            var page = PageHeader(kind: .dictionary(entryCount: Int32(entries)), bodySize: Int32(body.count)).compactBytes
            page.append(body)
            dictionaryPage = page
            encodings.formUnion([.plain, .rleDictionary])
            counts.append(PageEncodingCount(pageType: .dictionaryPage, encoding: .plain, count: 1))
            counts.append(PageEncodingCount(pageType: .dataPage, encoding: .rleDictionary, count: Int32(clamping: dictionaryEncodedPages)))
        }
        if plainPages > 0 {
            encodings.insert(.plain)
            counts.append(PageEncodingCount(pageType: .dataPage, encoding: .plain, count: Int32(clamping: plainPages)))
        }
        let finished = FinishedChunk(
            dictionaryPage: dictionaryPage,
            dataPages: pages,
            valueCount: rows,
            statistics: statistics.encoded(for: column.type, byteLimit: limits.statisticsBytes),
            encodings: encodings.sorted(),
            pageCounts: counts)
        self = ColumnChunkBuilder(column: column, limits: limits)
        return finished
    }
}
