import Testing
@testable import Parquet

/// Parquet's Thrift structs against bytes derived by hand from parquet.thrift's field ids and the
/// compact protocol spec.
@Suite struct FormatStructTests {
    @Test("an optional timestamp column: INT64, OPTIONAL, TIMESTAMP_MICROS, TIMESTAMP(UTC, MICROS)")
    func timestampSchemaElement() throws {
        let schema = try ParquetSchema([ParquetColumn("t", .timestampMicros, nullable: true)])
        let element = schema.elements[1]
        #expect(element.compactBytes.bytes == [
            0x15, 0x04,             // 1: type INT64 (2)
            0x25, 0x02,             // 3: repetition OPTIONAL (1)
            0x18, 0x01, 0x74,       // 4: name "t"
            0x25, 0x14,             // 6: converted_type TIMESTAMP_MICROS (10)
            0x4C,                   // 10: logicalType (union)
            0x8C,                   //   8: TIMESTAMP
            0x11,                   //     1: isAdjustedToUTC true
            0x1C,                   //     2: unit (union TimeUnit)
            0x2C, 0x00,             //       2: MICROS {}
            0x00,                   //     end TimeUnit
            0x00,                   //   end TimestampType
            0x00,                   // end LogicalType
            0x00,                   // end SchemaElement
        ])
    }

    @Test("a required decimal(18, 6) column: INT64, DECIMAL, scale 6, precision 18, DECIMAL(6, 18)")
    func decimalSchemaElement() throws {
        let schema = try ParquetSchema([ParquetColumn("m", .decimal18x6)])
        #expect(schema.elements[1].compactBytes.bytes == [
            0x15, 0x04,             // 1: type INT64
            0x25, 0x00,             // 3: REQUIRED
            0x18, 0x01, 0x6D,       // 4: name "m"
            0x25, 0x0A,             // 6: converted_type DECIMAL (5)
            0x15, 0x0C,             // 7: scale 6
            0x15, 0x24,             // 8: precision 18
            0x2C,                   // 10: logicalType
            0x5C,                   //   5: DECIMAL
            0x15, 0x0C,             //     1: scale 6
            0x15, 0x24,             //     2: precision 18
            0x00, 0x00, 0x00,
        ])
    }

    @Test("the root and a string column: num_children, BYTE_ARRAY, UTF8, STRING")
    func rootAndString() throws {
        let schema = try ParquetSchema([ParquetColumn("s", .string), ParquetColumn("b", .boolean, nullable: true)])
        #expect(schema.elements[0].compactBytes.bytes == [0x48, 0x06] + Array("schema".utf8) + [0x15, 0x04, 0x00])
        #expect(schema.elements[1].compactBytes.bytes == [
            0x15, 0x0C,             // 1: BYTE_ARRAY (6)
            0x25, 0x00,             // 3: REQUIRED
            0x18, 0x01, 0x73,       // 4: "s"
            0x25, 0x00,             // 6: UTF8 (0)
            0x4C, 0x1C, 0x00, 0x00, // 10: logicalType { 1: STRING {} }
            0x00,
        ])
        #expect(schema.elements[2].compactBytes.bytes == [0x15, 0x00, 0x25, 0x02, 0x18, 0x01, 0x62, 0x00])
    }

    @Test("a data page header: type 0, both sizes, DataPageHeader with RLE levels")
    func dataPageHeader() {
        let header = PageHeader(kind: .data(valueCount: 3, encoding: .rleDictionary), bodySize: 100)
        #expect(header.compactBytes.bytes == [
            0x15, 0x00,             // 1: DATA_PAGE
            0x15, 0xC8, 0x01,       // 2: uncompressed 100
            0x15, 0xC8, 0x01,       // 3: compressed 100
            0x2C,                   // 5: data_page_header
            0x15, 0x06,             //   1: num_values 3
            0x15, 0x10,             //   2: RLE_DICTIONARY (8)
            0x15, 0x06,             //   3: RLE (3)
            0x15, 0x06,             //   4: RLE
            0x00, 0x00,
        ])
    }

    @Test("a dictionary page header: type 2, DictionaryPageHeader at field 7 with PLAIN, unsorted")
    func dictionaryPageHeader() {
        let header = PageHeader(kind: .dictionary(entryCount: 2), bodySize: 10)
        #expect(header.compactBytes.bytes == [0x15, 0x04, 0x15, 0x14, 0x15, 0x14, 0x4C, 0x15, 0x04, 0x15, 0x00, 0x12, 0x00, 0x00])
    }

    @Test("statistics: deprecated max/min for signed types, null_count, max_value/min_value, exact flags")
    func statistics() {
        let signed = Statistics(nullCount: 2, minValue: [1], maxValue: [9], alsoDeprecatedBounds: true)
        #expect(signed.compactBytes.bytes == [0x18, 0x01, 0x09, 0x18, 0x01, 0x01, 0x16, 0x04, 0x28, 0x01, 0x09, 0x18, 0x01, 0x01, 0x11, 0x11, 0x00])
        let text = Statistics(nullCount: 0, minValue: [0x61], maxValue: [0x62], alsoDeprecatedBounds: false)
        #expect(text.compactBytes.bytes == [0x36, 0x00, 0x28, 0x01, 0x62, 0x18, 0x01, 0x61, 0x11, 0x11, 0x00])
        let allNull = Statistics(nullCount: 5, alsoDeprecatedBounds: true)
        #expect(allNull.compactBytes.bytes == [0x36, 0x0A, 0x00])
    }

    @Test("a key-value pair and a TYPE_ORDER column order")
    func keyValueAndColumnOrder() {
        #expect(ParquetKeyValue("k", "v").compactBytes.bytes == [0x18, 0x01, 0x6B, 0x18, 0x01, 0x76, 0x00])
        #expect(TypeDefinedOrder().compactBytes.bytes == [0x1C, 0x00, 0x00])
    }
}
