/// An encoder of the Thrift compact protocol (apache/thrift doc/specs/thrift-compact-protocol.md),
/// as far as Parquet's footer and page headers need it: structs and unions, bool, i8, i16, i32,
/// i64 and binary fields, and lists. Fields are written in the order given; the field id delta is
/// kept per struct level.
struct CompactProtocolWriter {
    /// The compact protocol's type ids: field types (`booleanTrue`/`booleanFalse` in a field
    /// header) and list element types (`boolean` = 2 in a list header).
    enum TypeID: UInt8 {
        case booleanTrue = 1
        case booleanFalse = 2
        case i8 = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12

        /// The element type of a list of bools (the spec's `BOOL` element type, 2).
        static let boolean = TypeID.booleanFalse
    }

    /// The encoded bytes so far.
    private(set) var buffer = ByteBuffer()
    private var lastFieldID: Int16 = 0
    private var enclosingFieldIDs: [Int16] = []

    init() {}

    // MARK: integers

    /// Appends `value` as an unsigned LEB128 var int.
    mutating func writeVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            buffer.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        buffer.append(UInt8(v))
    }

    /// The zigzag fold of a 32-bit value: 0, -1, 1, -2 ... to 0, 1, 2, 3 ...
    static func zigzag(_ n: Int32) -> UInt32 {
        UInt32(bitPattern: (n << 1) ^ (n >> 31))
    }

    /// The zigzag fold of a 64-bit value.
    static func zigzag(_ n: Int64) -> UInt64 {
        UInt64(bitPattern: (n << 1) ^ (n >> 63))
    }

    // MARK: values (list elements and field values)

    mutating func writeI8(_ value: Int8) { buffer.append(UInt8(bitPattern: value)) }
    mutating func writeI16(_ value: Int16) { writeVarint(UInt64(CompactProtocolWriter.zigzag(Int32(value)))) }
    mutating func writeI32(_ value: Int32) { writeVarint(UInt64(CompactProtocolWriter.zigzag(value))) }
    mutating func writeI64(_ value: Int64) { writeVarint(CompactProtocolWriter.zigzag(value)) }

    /// A bool as a list element: one byte, 1 or 0 (in a field it lives in the header instead).
    mutating func writeBoolElement(_ value: Bool) { buffer.append(value ? 1 : 0) }

    mutating func writeBinary(_ bytes: [UInt8]) {
        writeVarint(UInt64(bytes.count))
        buffer.append(bytes)
    }

    mutating func writeString(_ string: String) {
        writeVarint(UInt64(string.utf8.count))
        buffer.appendUTF8(string)
    }

    /// A list header: size and element type in one byte below 15 elements, else `0xF?` and a var int.
    mutating func writeListHeader(_ elementType: TypeID, count: Int) {
        if count < 15 {
            buffer.append(UInt8(count) << 4 | elementType.rawValue)
        } else {
            buffer.append(0xF0 | elementType.rawValue)
            writeVarint(UInt64(count))
        }
    }

    /// A struct (or union) value: its fields written by `body`, then the stop field.
    mutating func writeStruct(_ body: (inout CompactProtocolWriter) -> Void) {
        enclosingFieldIDs.append(lastFieldID)
        lastFieldID = 0
        body(&self)
        buffer.append(0)
        lastFieldID = enclosingFieldIDs.popLast() ?? 0
    }

    // MARK: fields

    /// A field header: the id delta and type in one byte when the delta is 1...15, else the type
    /// byte and the id as a zigzag var int.
    mutating func writeFieldHeader(_ id: Int16, _ type: TypeID) {
        let delta = Int(id) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            buffer.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            buffer.append(type.rawValue)
            writeI16(id)
        }
        lastFieldID = id
    }

    mutating func field(_ id: Int16, bool value: Bool) {
        writeFieldHeader(id, value ? .booleanTrue : .booleanFalse)
    }

    mutating func field(_ id: Int16, i8 value: Int8) {
        writeFieldHeader(id, .i8)
        writeI8(value)
    }

    mutating func field(_ id: Int16, i16 value: Int16) {
        writeFieldHeader(id, .i16)
        writeI16(value)
    }

    mutating func field(_ id: Int16, i32 value: Int32) {
        writeFieldHeader(id, .i32)
        writeI32(value)
    }

    mutating func field(_ id: Int16, i64 value: Int64) {
        writeFieldHeader(id, .i64)
        writeI64(value)
    }

    mutating func field(_ id: Int16, binary value: [UInt8]) {
        writeFieldHeader(id, .binary)
        writeBinary(value)
    }

    mutating func field(_ id: Int16, string value: String) {
        writeFieldHeader(id, .binary)
        writeString(value)
    }

    /// A struct or union field whose fields `body` writes.
    mutating func field(_ id: Int16, struct body: (inout CompactProtocolWriter) -> Void) {
        writeFieldHeader(id, .structure)
        writeStruct(body)
    }

    /// A struct field holding `value`.
    mutating func field(_ id: Int16, _ value: some CompactEncodable) {
        field(id, struct: value.encode)
    }

    mutating func field(_ id: Int16, i32List values: [Int32]) {
        writeFieldHeader(id, .list)
        writeListHeader(.i32, count: values.count)
        for v in values { writeI32(v) }
    }

    mutating func field(_ id: Int16, stringList values: [String]) {
        writeFieldHeader(id, .list)
        writeListHeader(.binary, count: values.count)
        for v in values { writeString(v) }
    }

    mutating func field<Element: CompactEncodable>(_ id: Int16, list values: [Element]) {
        writeFieldHeader(id, .list)
        writeListHeader(.structure, count: values.count)
        for v in values { writeStruct(v.encode) }
    }
}

/// A Thrift struct that writes its own fields (the stop field is the writer's).
protocol CompactEncodable {
    func encode(into writer: inout CompactProtocolWriter)
}

extension CompactEncodable {
    /// The struct alone, as the compact protocol lays it out (a page header, the footer).
    var compactBytes: ByteBuffer {
        var writer = CompactProtocolWriter()
        writer.writeStruct(encode)
        return writer.buffer
    }
}
