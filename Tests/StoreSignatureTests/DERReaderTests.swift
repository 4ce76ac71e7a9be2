import Testing
@testable import StoreSignature

/// The DER reader's rules, one refusal each, with the kind and offset it reports.
@Suite struct DERReaderTests {
    func single(_ bytes: [UInt8]) throws(DERError) -> DERElement { try DERReader.single(bytes, "value") }

    @Test("Short and long lengths in minimal form are read; the content and encoding slices are right")
    func lengths() throws {
        let short = try single([0x04, 0x02, 0xaa, 0xbb])
        #expect(Array(short.content) == [0xaa, 0xbb])
        #expect(Array(short.encoded) == [0x04, 0x02, 0xaa, 0xbb])
        let long = try single([0x04, 0x81, 0x80] + [UInt8](repeating: 7, count: 128))
        #expect(long.content.count == 128)
        #expect(long.contentStart == 3)
        let twoByte = try single([0x04, 0x82, 0x01, 0x00] + [UInt8](repeating: 1, count: 256))
        #expect(twoByte.content.count == 256)
    }

    @Test("BER and broken headers are refused: indefinite, non-minimal, oversized, past the end, truncated, trailing")
    func refusedHeaders() {
        #expect(throws: DERError(.indefiniteLength, field: "value", offset: 1)) { try single([0x30, 0x80, 0x00, 0x00]) }
        #expect(throws: DERError(.nonMinimalLength, field: "value", offset: 1)) { try single([0x04, 0x81, 0x05, 1, 2, 3, 4, 5]) }
        #expect(throws: DERError(.nonMinimalLength, field: "value", offset: 1)) { try single([0x04, 0x82, 0x00, 0x81] + [UInt8](repeating: 0, count: 0x81)) }
        #expect(throws: DERError(.lengthTooLarge(lengthBytes: 5), field: "value", offset: 1)) { try single([0x04, 0x85, 1, 0, 0, 0, 0]) }
        #expect(throws: DERError(.lengthPastEnd(length: 0xffff_ffff, available: 0), field: "value", offset: 0)) { try single([0x04, 0x84, 0xff, 0xff, 0xff, 0xff]) }
        #expect(throws: DERError(.lengthPastEnd(length: 3, available: 2), field: "value", offset: 0)) { try single([0x04, 0x03, 1, 2]) }
        #expect(throws: DERError(.truncated, field: "value", offset: 0)) { try single([]) }
        #expect(throws: DERError(.truncated, field: "value", offset: 1)) { try single([0x04]) }
        #expect(throws: DERError(.truncated, field: "value", offset: 2)) { try single([0x04, 0x82, 0x01]) }
        #expect(throws: DERError(.trailingBytes(count: 1), field: "value", offset: 2)) { try single([0x05, 0x00, 0x00]) }
        #expect(throws: DERError(.highTagNumber, field: "value", offset: 0)) { try single([0x1f, 0x81, 0x00, 0x00]) }
        #expect(DERError(.indefiniteLength, field: "certificate", offset: 1).description == "DER: certificate has an indefinite length (BER, not DER) at offset 1")
    }

    @Test("A child longer than its parent is refused even when the input continues")
    func childBounds() throws {
        let parent = try single([0x30, 0x03, 0x04, 0x05, 0x01])
        var children = try parent.children()
        #expect(throws: DERError(.lengthPastEnd(length: 5, available: 1), field: "inner", offset: 2)) { _ = try children.read("inner") }
        #expect(throws: DERError.self) { _ = try single([0x04, 0x01, 0x00]).children() }
    }

    @Test("Expected tags are enforced, and optional elements are read only when present")
    func tags() throws {
        var reader = try DERReader([0x02, 0x01, 0x05, 0x05, 0x00])
        #expect(try reader.readIfPresent(DERElement.Tag.boolean, "flag") == nil)
        #expect(throws: DERError(.unexpectedTag(found: 0x02, expected: 0x06), field: "oid", offset: 0)) { _ = try reader.read(DERElement.Tag.objectIdentifier, "oid") }
        #expect(try reader.read(DERElement.Tag.integer, "n").smallInteger() == 5)
        try reader.read(DERElement.Tag.null, "null").null()
        try reader.finish()
    }

    @Test("INTEGER and BOOLEAN contents follow DER: minimal integers, booleans 0x00/0xFF only")
    func integersAndBooleans() throws {
        #expect(Array(try single([0x02, 0x02, 0x00, 0x80]).integerBytes()) == [0x00, 0x80])
        #expect(Array(try single([0x02, 0x01, 0xff]).integerBytes()) == [0xff])
        #expect(throws: DERError.self) { try single([0x02, 0x02, 0x00, 0x7f]).integerBytes() }
        #expect(throws: DERError.self) { try single([0x02, 0x02, 0xff, 0x80]).integerBytes() }
        #expect(throws: DERError.self) { try single([0x02, 0x00]).integerBytes() }
        #expect(throws: DERError.self) { try single([0x02, 0x01, 0x80]).smallInteger() }
        #expect(try single([0x01, 0x01, 0xff]).boolean())
        #expect(try !single([0x01, 0x01, 0x00]).boolean())
        #expect(throws: DERError.self) { try single([0x01, 0x01, 0x01]).boolean() }
        #expect(throws: DERError.self) { try single([0x01, 0x02, 0x00, 0x00]).boolean() }
    }

    @Test("OBJECT IDENTIFIERs: parsed, printed, built from text; non-minimal and unterminated forms refused")
    func objectIdentifiers() throws {
        let apple = try single([0x06, 0x0a, 0x2a, 0x86, 0x48, 0x86, 0xf7, 0x63, 0x64, 0x06, 0x0b, 0x01]).objectIdentifier()
        #expect(apple.description == "1.2.840.113635.100.6.11.1")
        #expect(apple == AppleJWSVerifier.leafOID)
        #expect(AppleJWSVerifier.leafOID == DERObjectIdentifier("1.2.840.113635.100.6.11.1"))
        #expect(AppleJWSVerifier.intermediateOID == DERObjectIdentifier("1.2.840.113635.100.6.2.1"))
        #expect(DERObjectIdentifier("1.3.132.0.34") == .secp384r1)
        #expect(DERObjectIdentifier("2.999.3")?.description == "2.999.3")
        #expect(DERObjectIdentifier("3.1") == nil)
        #expect(DERObjectIdentifier("1.40") == nil)
        #expect(DERObjectIdentifier("1") == nil)
        #expect(DERObjectIdentifier("1.2.x") == nil)
        #expect(throws: DERError.self) { try single([0x06, 0x02, 0x2a, 0x86]).objectIdentifier() }
        #expect(throws: DERError.self) { try single([0x06, 0x03, 0x2a, 0x80, 0x01]).objectIdentifier() }
        #expect(throws: DERError.self) { try single([0x06, 0x00]).objectIdentifier() }
        #expect(throws: DERError.self) { try single([0x06, 0x0b, 0x2a] + [UInt8](repeating: 0xff, count: 9) + [0x7f]).objectIdentifier() }
    }

    @Test("BIT STRINGs: unused-bit count checked, unused bits zero, whole bytes where keys belong")
    func bitStrings() throws {
        let bits = try single([0x03, 0x02, 0x07, 0x80]).bitString()
        #expect(bits.unusedBits == 7 && Array(bits.bytes) == [0x80])
        #expect(throws: DERError.self) { try single([0x03, 0x02, 0x07, 0x81]).bitString() }
        #expect(throws: DERError.self) { try single([0x03, 0x02, 0x08, 0x00]).bitString() }
        #expect(throws: DERError.self) { try single([0x03, 0x01, 0x01]).bitString() }
        #expect(throws: DERError.self) { try single([0x03, 0x00]).bitString() }
        #expect(throws: DERError.self) { try single([0x03, 0x02, 0x01, 0x02]).octetAlignedBitString() }
        #expect(try single([0x03, 0x03, 0x00, 0x04, 0x05]).octetAlignedBitString() == [0x04, 0x05])
    }

    @Test("UTCTime and GeneralizedTime become milliseconds since 1970; malformed times are refused")
    func times() throws {
        func time(_ tag: UInt8, _ text: String) throws -> Int64 { try single([tag, UInt8(text.utf8.count)] + Array(text.utf8)).time() }
        #expect(try time(0x17, "230412154524Z") == 1_681_314_324_000)
        #expect(try time(0x17, "500101000000Z") == -631_152_000_000)
        #expect(try time(0x17, "491231235959Z") == 2_524_607_999_000)
        #expect(try time(0x18, "20240229000000Z") == 1_709_164_800_000)
        #expect(try time(0x18, "19700101000000Z") == 0)
        for bad in ["230230000000Z", "231301000000Z", "230412246000Z", "2304121545Z", "230412154524+0000", "23041215452aZ"] {
            #expect(throws: DERError.self, "\(bad)") { try time(0x17, bad) }
        }
        #expect(throws: DERError.self) { try time(0x18, "20230229000000Z") }
        #expect(throws: DERError.self) { try time(0x18, "20230412154524.5Z") }
        #expect(throws: DERError.self) { try time(0x04, "230412154524Z") }
    }
}
