import Parquet

/// A minimal Parquet reader for the tests, written from parquet.thrift and Encodings.md: it checks
/// the frame (`PAR1`, footer length), decodes the footer with `CompactReader`, walks every column
/// chunk's pages from the offsets the footer gives, and decodes the values (PLAIN or dictionary,
/// with definition levels), so round trips can be checked without an outside reader.
struct TestFileReader {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ d: String) { description = d }
    }

    let bytes: [UInt8]
    let footer: CompactReader.Value
    /// Where the footer starts.
    let footerOffset: Int

    init(_ bytes: [UInt8]) throws {
        self.bytes = bytes
        let magic = Array("PAR1".utf8)
        guard bytes.count >= 12, Array(bytes[0..<4]) == magic, Array(bytes[(bytes.count - 4)...]) == magic else {
            throw Failure("no PAR1 at both ends")
        }
        let lengthAt = bytes.count - 8
        let length = (0..<4).reduce(0) { $0 | Int(bytes[lengthAt + $1]) << (8 * $1) }
        footerOffset = lengthAt - length
        guard footerOffset >= 4 else { throw Failure("footer length \(length) passes the start") }
        var reader = CompactReader(bytes, offset: footerOffset)
        footer = try reader.readStruct()
        guard reader.offset == lengthAt else { throw Failure("footer ends at \(reader.offset), not \(lengthAt)") }
    }

    var rowCount: Int64? { footer[3]?.int }
    var rowGroups: [CompactReader.Value] { footer[4]?.list ?? [] }
    var schema: [CompactReader.Value] { footer[2]?.list ?? [] }
    var keyValues: [(String, String)] {
        (footer[5]?.list ?? []).map { ($0[1]?.string ?? "", $0[2]?.string ?? "") }
    }

    /// The column metadata of row group `g`, column `c`.
    func columnMeta(_ g: Int, _ c: Int) -> CompactReader.Value? {
        rowGroups[g][1]?.list?[c][3]
    }

    /// Every column's values, row groups concatenated; a column's kind comes from its schema element.
    func readColumns() throws -> [[ParquetValue]] {
        let leaves = Array(schema.dropFirst())
        var columns = [[ParquetValue]](repeating: [], count: leaves.count)
        for g in rowGroups.indices {
            guard let chunks = rowGroups[g][1]?.list, chunks.count == leaves.count else { throw Failure("row group \(g) has the wrong column count") }
            for (c, chunk) in chunks.enumerated() {
                guard let meta = chunk[3] else { throw Failure("chunk \(g)/\(c) has no meta_data") }
                columns[c] += try readChunk(meta, leaf: leaves[c])
            }
        }
        return columns
    }

    private func readChunk(_ meta: CompactReader.Value, leaf: CompactReader.Value) throws -> [ParquetValue] {
        guard let physical = leaf[1]?.int, let total = meta[7]?.int, let dataOffset = meta[9]?.int, let valueCount = meta[5]?.int else {
            throw Failure("column metadata lacks type, size or offsets")
        }
        let optional = leaf[3]?.int == 1
        let start = Int(meta[11]?.int ?? dataOffset)
        let end = start + Int(total)
        guard end <= footerOffset else { throw Failure("chunk passes the footer") }
        var offset = start
        var dictionary: [ParquetValue] = []
        var values: [ParquetValue] = []
        while offset < end {
            var reader = CompactReader(bytes, offset: offset)
            let header = try reader.readStruct()
            guard let type = header[1]?.int, let size = header[3]?.int, header[2]?.int == size else { throw Failure("bad page header at \(offset)") }
            let body = Array(bytes[reader.offset..<(reader.offset + Int(size))])
            offset = reader.offset + Int(size)
            if type == 2 {
                guard let count = header[7]?[1]?.int else { throw Failure("dictionary page without a count") }
                var cursor = 0
                dictionary = try plainValues(body, &cursor, count: Int(count), physical: physical)
                guard cursor == body.count else { throw Failure("dictionary page has trailing bytes") }
                continue
            }
            guard type == 0, let count = header[5]?[1]?.int, let encoding = header[5]?[2]?.int else { throw Failure("unexpected page type \(type)") }
            var cursor = 0
            var defined = [UInt32](repeating: 1, count: Int(count))
            if optional {
                let length = (0..<4).reduce(0) { $0 | Int(body[$1]) << (8 * $1) }
                defined = try HybridDecoder.decode(Array(body[4..<(4 + length)]), bitWidth: 1, count: Int(count))
                cursor = 4 + length
            }
            let present = defined.filter { $0 == 1 }.count
            var decoded: [ParquetValue]
            if encoding == 8 {
                let width = Int(body[cursor])
                let indices = try HybridDecoder.decode(Array(body[(cursor + 1)...]), bitWidth: width, count: present)
                decoded = try indices.map { i in
                    guard Int(i) < dictionary.count else { throw Failure("index \(i) past a dictionary of \(dictionary.count)") }
                    return dictionary[Int(i)]
                }
            } else {
                guard encoding == 0 else { throw Failure("unexpected encoding \(encoding)") }
                decoded = try plainValues(body, &cursor, count: present, physical: physical)
                guard cursor == body.count else { throw Failure("data page has trailing bytes") }
            }
            var next = 0
            for d in defined {
                if d == 1 { values.append(decoded[next]); next += 1 } else { values.append(.null) }
            }
        }
        guard offset == end, values.count == Int(valueCount) else { throw Failure("chunk pages do not add up: \(values.count) values, \(valueCount) declared") }
        return values
    }

    private func plainValues(_ body: [UInt8], _ cursor: inout Int, count: Int, physical: Int64) throws -> [ParquetValue] {
        var out: [ParquetValue] = []
        switch physical {
        case 0:
            for k in 0..<count { out.append(.bool(body[cursor + k / 8] >> UInt8(k % 8) & 1 == 1)) }
            cursor += (count + 7) / 8
        case 2:
            for _ in 0..<count {
                guard cursor + 8 <= body.count else { throw Failure("INT64 past the page") }
                let v = (0..<8).reduce(UInt64(0)) { $0 | UInt64(body[cursor + $1]) << (8 * UInt64($1)) }
                out.append(.int64(Int64(bitPattern: v)))
                cursor += 8
            }
        case 6:
            for _ in 0..<count {
                guard cursor + 4 <= body.count else { throw Failure("BYTE_ARRAY length past the page") }
                let n = (0..<4).reduce(0) { $0 | Int(body[cursor + $1]) << (8 * $1) }
                guard cursor + 4 + n <= body.count else { throw Failure("BYTE_ARRAY past the page") }
                out.append(.string(String(decoding: body[(cursor + 4)..<(cursor + 4 + n)], as: UTF8.self)))
                cursor += 4 + n
            }
        default:
            throw Failure("unexpected physical type \(physical)")
        }
        return out
    }
}
