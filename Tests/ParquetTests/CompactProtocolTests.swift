import Testing
@testable import Parquet

/// Bytes derived by hand from apache/thrift doc/specs/thrift-compact-protocol.md.
@Suite struct CompactProtocolTests {
    private func bytes(_ build: (inout CompactProtocolWriter) -> Void) -> [UInt8] {
        var w = CompactProtocolWriter()
        build(&w)
        return w.buffer.bytes
    }

    @Test("var ints are unsigned LEB128, 7 bits a byte, low group first (the spec's 50399 example)")
    func varints() {
        #expect(bytes { $0.writeVarint(0) } == [0x00])
        #expect(bytes { $0.writeVarint(1) } == [0x01])
        #expect(bytes { $0.writeVarint(127) } == [0x7F])
        #expect(bytes { $0.writeVarint(128) } == [0x80, 0x01])
        #expect(bytes { $0.writeVarint(300) } == [0xAC, 0x02])
        #expect(bytes { $0.writeVarint(50399) } == [0xDF, 0x89, 0x03])
        #expect(bytes { $0.writeVarint(UInt64.max) } == [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01])
    }

    @Test("zigzag folds 0, -1, 1, -2, 2 to 0, 1, 2, 3, 4 and the extremes to the top")
    func zigzag() {
        #expect([0, -1, 1, -2, 2].map { CompactProtocolWriter.zigzag(Int32($0)) } == [0, 1, 2, 3, 4])
        #expect(CompactProtocolWriter.zigzag(Int32.max) == 0xFFFF_FFFE)
        #expect(CompactProtocolWriter.zigzag(Int32.min) == 0xFFFF_FFFF)
        #expect(CompactProtocolWriter.zigzag(Int64.max) == 0xFFFF_FFFF_FFFF_FFFE)
        #expect(CompactProtocolWriter.zigzag(Int64.min) == UInt64.max)
        // i32 -1 as a value: zigzag 1.
        #expect(bytes { $0.writeI32(-1) } == [0x01])
        // i64 -64 → zigzag 127 → one byte; -65 → 129 → two.
        #expect(bytes { $0.writeI64(-64) } == [0x7F])
        #expect(bytes { $0.writeI64(-65) } == [0x81, 0x01])
    }

    @Test("a field header packs the id delta (1...15) and the type in one byte")
    func shortFieldHeaders() {
        // field 1 i32 5: 0x15, zigzag(5) = 10.
        #expect(bytes { $0.field(1, i32: 5) } == [0x15, 0x0A])
        // then field 5 i64 1: delta 4, type 6 → 0x46, zigzag(1) = 2.
        #expect(bytes { $0.field(1, i32: 5); $0.field(5, i64: 1) } == [0x15, 0x0A, 0x46, 0x02])
        // a delta of exactly 15 still fits: field 15 binary "": 0xF8 0x00.
        #expect(bytes { $0.field(15, binary: []) } == [0xF8, 0x00])
    }

    @Test("a delta past 15, or not positive, takes the long form: type byte then zigzag id")
    func longFieldHeaders() {
        // field 16 i32 0: 0x05, zigzag(16) = 32, value 0.
        #expect(bytes { $0.field(16, i32: 0) } == [0x05, 0x20, 0x00])
        // field 5 then field 3: delta -2 → long form 0x05 0x06.
        #expect(bytes { $0.field(5, i32: 0); $0.field(3, i32: 0) } == [0x55, 0x00, 0x05, 0x06, 0x00])
    }

    @Test("bool fields live in the header: 1 true, 2 false; list elements are a byte each")
    func bools() {
        #expect(bytes { $0.field(1, bool: true); $0.field(2, bool: false) } == [0x11, 0x12])
        #expect(bytes { $0.writeListHeader(.boolean, count: 2); $0.writeBoolElement(true); $0.writeBoolElement(false) } == [0x22, 0x01, 0x00])
    }

    @Test("binary and strings: var int length then the bytes; i8 one byte; i16 zigzag")
    func binaryAndSmallInts() {
        #expect(bytes { $0.field(4, string: "ab") } == [0x48, 0x02, 0x61, 0x62])
        #expect(bytes { $0.field(4, string: "é") } == [0x48, 0x02, 0xC3, 0xA9])
        #expect(bytes { $0.field(1, i8: -1) } == [0x13, 0xFF])
        #expect(bytes { $0.field(7, i16: 3) } == [0x74, 0x06])
    }

    @Test("list headers: size and element type in one byte below 15, else 0xF? and a var int size")
    func lists() {
        #expect(bytes { $0.field(2, i32List: [1, 2, 3]) } == [0x29, 0x35, 0x02, 0x04, 0x06])
        #expect(bytes { $0.field(3, stringList: ["a"]) } == [0x39, 0x18, 0x01, 0x61])
        #expect(bytes { $0.writeListHeader(.i32, count: 14) } == [0xE5])
        #expect(bytes { $0.writeListHeader(.i32, count: 15) } == [0xF5, 0x0F])
        #expect(bytes { $0.writeListHeader(.structure, count: 300) } == [0xFC, 0xAC, 0x02])
        #expect(bytes { $0.field(1, i32List: []) } == [0x19, 0x05])
    }

    @Test("a nested struct restarts field deltas and the outer struct resumes its own")
    func nestedStructs() {
        let encoded = bytes { w in
            w.field(1, struct: { inner in
                inner.field(1, i32: 1)
                inner.field(2, struct: { _ in })
            })
            w.field(2, i32: 0)
        }
        // 0x1C struct field 1; inside 0x15 0x02, 0x1C 0x00 (empty struct, delta 1 from 1); stop 0x00;
        // outer field 2: delta 1 → 0x15 0x00.
        #expect(encoded == [0x1C, 0x15, 0x02, 0x1C, 0x00, 0x00, 0x15, 0x00])
        // A list of two structs: header 0x2C, each struct's fields start again at delta 1.
        struct One: CompactEncodable {
            var v: Int32
            func encode(into w: inout CompactProtocolWriter) { w.field(1, i32: v) }
        }
        #expect(bytes { $0.field(4, list: [One(v: 1), One(v: -1)]) } == [0x49, 0x2C, 0x15, 0x02, 0x00, 0x15, 0x01, 0x00])
        #expect(One(v: 2).compactBytes.bytes == [0x15, 0x04, 0x00])
    }
}
