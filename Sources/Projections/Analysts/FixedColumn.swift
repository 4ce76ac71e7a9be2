/// A row of a fixed number of bytes, stored little-endian: what `FixedColumn` keeps in place.
package protocol FixedRow: Sendable {
    static var width: Int { get }
    /// The row at `p` (`width` bytes, any alignment).
    static func decode(_ p: UnsafeRawPointer) -> Self
    /// Appends the row's `width` bytes.
    func encode(into bytes: inout [UInt8])
}

/// Rows kept as the bytes a file stores them in and decoded when read: a stored column is used
/// in place (one read, no parse into objects), and a query decodes only the rows it visits.
package struct FixedColumn<Row: FixedRow>: RandomAccessCollection, Sendable {
    package let bytes: [UInt8]
    package let endIndex: Int
    package var startIndex: Int { 0 }

    init(_ rows: [Row]) {
        var b: [UInt8] = []
        b.reserveCapacity(rows.count * Row.width)
        for r in rows { r.encode(into: &b) }
        bytes = b
        endIndex = rows.count
    }

    /// The column over stored bytes, a whole number of rows (the caller checks the rows).
    package init(bytes: [UInt8]) {
        precondition(bytes.count % Row.width == 0)
        self.bytes = bytes
        endIndex = bytes.count / Row.width
    }

    @inline(__always) package subscript(i: Int) -> Row {
        precondition(i >= 0 && i < endIndex)
        return bytes.withUnsafeBytes { Row.decode($0.baseAddress! + i * Row.width) }
    }
}

/// Little-endian loads and stores for `FixedRow`s.
enum LittleEndianBytes {
    @inline(__always) static func int64(_ p: UnsafeRawPointer, _ at: Int) -> Int64 { Int64(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int64.self)) }
    @inline(__always) static func int32(_ p: UnsafeRawPointer, _ at: Int) -> Int32 { Int32(littleEndian: p.loadUnaligned(fromByteOffset: at, as: Int32.self)) }
    @inline(__always) static func append(_ v: Int64, _ b: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { b.append(contentsOf: $0) } }
    @inline(__always) static func append(_ v: Int32, _ b: inout [UInt8]) { withUnsafeBytes(of: v.littleEndian) { b.append(contentsOf: $0) } }
}
