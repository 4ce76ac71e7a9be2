/// A Thrift compact protocol decoder for the tests (written from the spec, not from the writer):
/// it reads any struct into a tree of field ids and values, so a test can check what a footer or
/// page header says without an outside reader.
struct CompactReader {
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var message: String
        var description: String { "compact decode at byte \(offset): \(message)" }
    }

    indirect enum Value: Equatable {
        case bool(Bool)
        case int(Int64)
        case double(UInt64)
        case binary([UInt8])
        case list([Value])
        case structure([Int16: Value])

        var int: Int64? { if case .int(let v) = self { v } else { nil } }
        var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
        var binary: [UInt8]? { if case .binary(let v) = self { v } else { nil } }
        var string: String? { binary.map { String(decoding: $0, as: UTF8.self) } }
        var list: [Value]? { if case .list(let v) = self { v } else { nil } }
        var fields: [Int16: Value]? { if case .structure(let v) = self { v } else { nil } }
        subscript(_ id: Int16) -> Value? { fields?[id] }
    }

    let bytes: [UInt8]
    private(set) var offset: Int

    init(_ bytes: [UInt8], offset: Int = 0) {
        self.bytes = bytes
        self.offset = offset
    }

    mutating func readByte() throws -> UInt8 {
        guard offset < bytes.count else { throw Failure(offset: offset, message: "unexpected end") }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func readVarint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try readByte()
            guard shift < 64 else { throw Failure(offset: offset, message: "var int too long") }
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
        }
    }

    mutating func readZigzag() throws -> Int64 {
        let z = try readVarint()
        return Int64(bitPattern: (z >> 1) ^ (0 &- (z & 1)))
    }

    mutating func readStruct() throws -> Value {
        var fields: [Int16: Value] = [:]
        var lastID: Int16 = 0
        while true {
            let header = try readByte()
            if header == 0 { return .structure(fields) }
            let type = header & 0x0F
            let delta = header >> 4
            let id: Int16
            if delta == 0 {
                guard let explicit = Int16(exactly: try readZigzag()) else { throw Failure(offset: offset, message: "field id out of range") }
                id = explicit
            } else {
                id = lastID + Int16(delta)
            }
            lastID = id
            switch type {
            case 1: fields[id] = .bool(true)
            case 2: fields[id] = .bool(false)
            default: fields[id] = try readValue(type: type)
            }
        }
    }

    mutating func readValue(type: UInt8) throws -> Value {
        switch type {
        case 1, 2: return .bool(try readByte() == 1)
        case 3: return .int(Int64(Int8(bitPattern: try readByte())))
        case 4, 5, 6: return .int(try readZigzag())
        case 7:
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(try readByte()) << (8 * UInt64(i)) }
            return .double(bits)
        case 8:
            let count = Int(try readVarint())
            guard count <= bytes.count - offset else { throw Failure(offset: offset, message: "binary of \(count) bytes passes the end") }
            defer { offset += count }
            return .binary(Array(bytes[offset..<(offset + count)]))
        case 9, 10:
            let header = try readByte()
            var count = Int(header >> 4)
            if count == 15 { count = Int(try readVarint()) }
            let elementType = header & 0x0F
            var elements: [Value] = []
            for _ in 0..<count { elements.append(try readValue(type: elementType)) }
            return .list(elements)
        case 12: return try readStruct()
        default: throw Failure(offset: offset, message: "type \(type) not expected in Parquet metadata")
        }
    }
}
