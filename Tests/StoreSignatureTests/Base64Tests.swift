import Testing
@testable import StoreSignature

/// RFC 4648 §10 test vectors in both alphabets, and the strictness rules.
@Suite struct Base64Tests {
    static let vectors: [(String, String)] = [("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"),
                                              ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="), ("foobar", "Zm9vYmFy")]

    @Test("RFC 4648 vectors decode in the padded standard form and the unpadded URL form")
    func vectors() throws {
        for (plain, encoded) in Self.vectors {
            #expect(try Base64.decode(encoded) == Array(plain.utf8))
            #expect(try Base64.decodeURL(encoded.replacingOccurrences(of: "=", with: "")) == Array(plain.utf8))
        }
        #expect(try Base64.decode("+/8=") == [0xfb, 0xff])
        #expect(try Base64.decodeURL("-_8") == [0xfb, 0xff])
    }

    @Test("Refused: whitespace, wrong alphabet, missing or misplaced padding, a lone character, nonzero unused bits")
    func refusals() {
        let standard = ["Zm9v\n", " Zm9v", "Zg", "Zg=", "Z===", "Zg=a", "Zh==", "-_8=", "Zm9vYg=\u{0}", "Zm8=Zm8="]
        for text in standard { #expect(throws: Base64.DecodingError.self, "\(text)") { try Base64.decode(text) } }
        let url = ["Zg==", "Zm9vY", "+/8", "Zh", "Zm9v.", "Zm 9v"]
        for text in url { #expect(throws: Base64.DecodingError.self, "\(text)") { try Base64.decodeURL(text) } }
        #expect(throws: Base64.DecodingError(reason: "'!' is not in the base64url alphabet", offset: 2)) { try Base64.decodeURL("Zm!v") }
    }

    @Test("PEM: certificate blocks are found among other text; broken blocks are refused")
    func pem() throws {
        let text = "junk\r\n-----BEGIN CERTIFICATE-----\r\nZm9v\r\nYmFy\r\n-----END CERTIFICATE-----\n-----BEGIN CERTIFICATE-----\nZg==\n-----END CERTIFICATE-----\n"
        #expect(try PEM.certificates(in: text) == [Array("foobar".utf8), Array("f".utf8)])
        #expect(throws: Base64.DecodingError.self) { try PEM.certificates(in: "no blocks") }
        #expect(throws: Base64.DecodingError.self) { try PEM.certificates(in: "-----BEGIN CERTIFICATE-----\nZm9v\n") }
        #expect(throws: Base64.DecodingError.self) { try PEM.certificates(in: "-----BEGIN CERTIFICATE-----\nZm9\n-----END CERTIFICATE-----") }
    }
}
