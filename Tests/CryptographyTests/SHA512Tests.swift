import Testing
@testable import Cryptography

/// FIPS 180-4 examples (NIST "Example Algorithm" pages for SHA-512 and the long-message test).
@Suite struct SHA512Vectors {
    @Test("abc, the empty string and the two multi-block messages give NIST's digests")
    func nistExamples() {
        #expect(hex(SHA512.hash(Array("abc".utf8))) ==
            "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f")
        #expect(hex(SHA512.hash([UInt8]())) ==
            "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")
        #expect(hex(SHA512.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) ==
            "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445")
        let message896 = "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
        #expect(hex(SHA512.hash(Array(message896.utf8))) ==
            "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909")
    }

    @Test("one million a's give NIST's digest")
    func oneMillionAs() {
        #expect(hex(SHA512.hash([UInt8](repeating: 0x61, count: 1_000_000))) ==
            "e718483d0ce769644e2e42c7bc15b4638e1f98b13b2044285632a803afa973ebde0ff244877ea60a4cb0432ce577c31beb009c5c2c49aa2e4eadb217ad8cc09b")
    }

    @Test("feeding a message in pieces at every split gives the one-call digest")
    func incrementalEqualsOneShot() {
        let message = (0..<300).map { UInt8(truncatingIfNeeded: $0 &* 29 &+ 3) }
        let whole = SHA512.hash(message)
        for split in stride(from: 0, through: message.count, by: 7) {
            var hasher = SHA512()
            hasher.update(message[..<split])
            hasher.update(message[split...])
            #expect(hasher.finalize() == whole, "split at \(split)")
        }
    }
}

/// The copied SHA-256 still gives FIPS 180-4's digests here.
@Suite struct SHA256Vectors {
    @Test("abc and the empty string give FIPS 180-4's SHA-256 digests")
    func fipsExamples() {
        #expect(SHA256.hash(Array("abc".utf8)).description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash([UInt8]()).description == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    }
}
