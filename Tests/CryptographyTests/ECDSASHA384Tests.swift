import Testing
@testable import Cryptography

/// SHA-384 against the FIPS 180-4 examples (NIST "Cryptographic Standards and Guidelines:
/// Examples with Intermediate Values", SHA384.pdf) and the long-message vector, and SHA-256
/// (the project's copy) against its "abc" example.
@Suite struct ECDSASHA384Tests {
    @Test("SHA-384 of \"abc\", the empty string, the 896-bit message and a million 'a'")
    func fipsExamples() {
        #expect(ECDSAHex.string(ECDSA.SHA384.hash(Array("abc".utf8))) ==
                "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7")
        #expect(ECDSAHex.string(ECDSA.SHA384.hash([])) ==
                "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")
        let message = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(ECDSAHex.string(ECDSA.SHA384.hash(Array(message.utf8))) ==
                "09330c33f71147e83d192fc782cd1b4753111b173b3b05d22fa08086e3b0f712fcc7c71a557e2db966c3e9fa91746039")
        #expect(ECDSAHex.string(ECDSA.SHA384.hash([UInt8](repeating: 0x61, count: 1_000_000))) ==
                "9d0e1809716474cb086e834e310a4a1ced149e9c00f248527972cec5704c2a5b07b8b3dc38ecc4ebae97ddd87f3d8985")
    }

    @Test("Messages around the 112-byte padding boundary hash to 48 distinct bytes each")
    func paddingBoundaries() {
        var digests = Set<[UInt8]>()
        for length in 100...260 {
            let digest = ECDSA.SHA384.hash([UInt8](repeating: 0x5a, count: length))
            #expect(digest.count == 48)
            digests.insert(digest)
        }
        #expect(digests.count == 161)
    }

    @Test("The copied SHA-256 gives the FIPS 180-4 \"abc\" digest")
    func sha256Copy() {
        #expect(SHA256.hash(Array("abc".utf8)).description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ECDSA.HashFunction.sha256.digest(Array("abc".utf8)) == SHA256.hash(Array("abc".utf8)).bytes)
    }
}
