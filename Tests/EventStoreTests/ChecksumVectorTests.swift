import Testing
@testable import EventStore

@Suite struct CRC32CVectors {
    @Test func checkValueOf123456789() {
        #expect(CRC32C.checksum("123456789") == 0xE306_9283)
    }

    @Test func rfc3720Vectors() {
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum((0..<32).map { UInt8($0) }) == 0x46DD_794E)
        #expect(CRC32C.checksum((0..<32).map { UInt8(31 - $0) }) == 0x113F_DB5C)
    }

    /// The published vectors through the software tables too, whichever path `checksum` takes here.
    @Test func softwareTablesGiveThePublishedVectors() {
        #expect([UInt8]("123456789".utf8).withUnsafeBytes { CRC32C.softwareChecksum($0) } == 0xE306_9283)
        #expect([UInt8](repeating: 0xFF, count: 32).withUnsafeBytes { CRC32C.softwareChecksum($0) } == 0x62A8_AB43)
        #expect((0..<32).map { UInt8(31 - $0) }.withUnsafeBytes { CRC32C.softwareChecksum($0) } == 0x113F_DB5C)
    }

    /// The CPU instruction and the tables agree on every length and alignment up to 300 bytes.
    @Test func instructionAndTablesAgreeOnEveryLengthAndAlignment() {
        let data = (0..<310).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ 7) }
        data.withUnsafeBytes { all in
            for start in 0..<8 {
                for length in 0...300 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    #expect(CRC32C.checksum(slice, continuing: 0x1234_5678) == CRC32C.softwareChecksum(slice, continuing: 0x1234_5678))
                }
            }
        }
    }

    @Test func continuingEqualsOneShotAtEverySplit() {
        let data = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
        let whole = CRC32C.checksum(data)
        for split in 0...data.count {
            let first = data[..<split].withUnsafeBytes { CRC32C.checksum($0) }
            let both = data[split...].withUnsafeBytes { CRC32C.checksum($0, continuing: first) }
            #expect(both == whole)
        }
    }
}

@Suite struct SHA256Vectors {
    @Test func fips180Examples() {
        #expect(SHA256.hash(bytes("abc")).description == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hash(bytes("")).description == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hash(bytes("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq")).description
            == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hash(bytes("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu")).description
            == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    }

    @Test func oneMillionAs() {
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)).description
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Whichever path `hash` takes on this CPU, the Swift rounds give the published digests and
    /// the same digest as the CPU's instructions (when it has them) for every length around the
    /// block and padding boundaries.
    @Test func cpuInstructionsAndSwiftRoundsAgree() {
        #expect(bytes("abc").withUnsafeBytes { SHA256.hash($0, hardware: false) }.description
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect([UInt8](repeating: 0x61, count: 1_000_000).withUnsafeBytes { SHA256.hash($0, hardware: false) }.description
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let data = (0..<700).map { _ -> UInt8 in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
        for n in 0...data.count {
            let (software, hardware) = data[..<n].withUnsafeBytes { b in
                (SHA256.hash(b, hardware: false), SHA256.usesHardware ? SHA256.hash(b, hardware: true) : SHA256.hash(b, hardware: false))
            }
            #expect(software == hardware, "length \(n)")
            #expect(data[..<n].withUnsafeBytes { SHA256.hash($0) } == software, "length \(n)")
        }
    }

    @Test func incrementalUpdatesEqualOneShot() {
        let data = (0..<300).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let whole = SHA256.hash(data)
        for step in [1, 3, 63, 64, 65, 127] {
            var h = SHA256()
            var i = 0
            while i < data.count { h.update(Array(data[i..<min(i + step, data.count)])); i += step }
            #expect(h.finalize() == whole)
        }
    }
}
