extension ECDSA {
    /// An ECDSA signature (r, s) as unsigned big-endian magnitudes without leading zero bytes
    /// (an empty array is zero). Range checks against a curve's order happen at verification.
    public struct Signature: Sendable, Equatable {
        /// r, big-endian, no leading zeros.
        public let r: [UInt8]
        /// s, big-endian, no leading zeros.
        public let s: [UInt8]

        /// A signature from its two magnitudes (leading zero bytes are dropped).
        public init(r: [UInt8], s: [UInt8]) {
            self.r = Array(r.drop(while: { $0 == 0 }))
            self.s = Array(s.drop(while: { $0 == 0 }))
        }

        /// The IEEE P1363 / JWS form r‖s: two equal halves. Curve keys check the exact length
        /// (`P256.PublicKey.verify(rawSignature:…)`); this only needs an even, nonzero length.
        public init(rawRS bytes: [UInt8]) throws(ECDSAError) {
            guard !bytes.isEmpty, bytes.count % 2 == 0 else {
                throw .signatureEncoding(reason: "raw r‖s signature has odd or zero length \(bytes.count)", offset: 0)
            }
            let half = bytes.count / 2
            self.init(r: Array(bytes[..<half]), s: Array(bytes[half...]))
        }

        /// The X.509 / ASN.1 form `SEQUENCE { INTEGER r, INTEGER s }`, strict DER: definite minimal
        /// lengths, minimal non-negative integers, nothing after the sequence.
        public init(derEncoded bytes: [UInt8]) throws(ECDSAError) {
            var offset = 0
            let sequenceLength = try Self.readHeader(bytes, &offset, tag: 0x30, what: "SEQUENCE")
            guard offset + sequenceLength == bytes.count else {
                throw .signatureEncoding(reason: "SEQUENCE length \(sequenceLength) does not end at the input's end (\(bytes.count) bytes)", offset: offset)
            }
            let r = try Self.readInteger(bytes, &offset, name: "r")
            let s = try Self.readInteger(bytes, &offset, name: "s")
            guard offset == bytes.count else {
                throw .signatureEncoding(reason: "\(bytes.count - offset) bytes after s inside the SEQUENCE", offset: offset)
            }
            self.r = r
            self.s = s
        }

        /// Reads a tag and a definite, minimally encoded length; returns the length.
        private static func readHeader(_ bytes: [UInt8], _ offset: inout Int, tag: UInt8, what: String) throws(ECDSAError) -> Int {
            guard offset < bytes.count else { throw .signatureEncoding(reason: "input ends before \(what)", offset: offset) }
            guard bytes[offset] == tag else {
                throw .signatureEncoding(reason: "tag 0x\(String(bytes[offset], radix: 16)) where \(what) (0x\(String(tag, radix: 16))) belongs", offset: offset)
            }
            offset += 1
            guard offset < bytes.count else { throw .signatureEncoding(reason: "input ends before the length of \(what)", offset: offset) }
            let first = bytes[offset]
            offset += 1
            if first < 0x80 { return try checked(Int(first), bytes, offset, what) }
            if first == 0x80 { throw .signatureEncoding(reason: "indefinite length for \(what)", offset: offset - 1) }
            let lengthBytes = Int(first & 0x7f)
            guard lengthBytes <= 2 else {
                throw .signatureEncoding(reason: "\(lengthBytes)-byte length for \(what) is too large for a signature", offset: offset - 1)
            }
            guard offset + lengthBytes <= bytes.count else {
                throw .signatureEncoding(reason: "input ends inside the length of \(what)", offset: offset)
            }
            var length = 0
            for i in 0..<lengthBytes { length = length << 8 | Int(bytes[offset + i]) }
            if bytes[offset] == 0 || length < 0x80 {
                throw .signatureEncoding(reason: "non-minimal length encoding for \(what)", offset: offset - 1)
            }
            offset += lengthBytes
            return try checked(length, bytes, offset, what)
        }

        private static func checked(_ length: Int, _ bytes: [UInt8], _ offset: Int, _ what: String) throws(ECDSAError) -> Int {
            guard length <= bytes.count - offset else {
                throw .signatureEncoding(reason: "\(what) length \(length) runs past the input's end", offset: offset)
            }
            return length
        }

        /// Reads a non-negative, minimally encoded INTEGER; returns its magnitude without leading zeros.
        private static func readInteger(_ bytes: [UInt8], _ offset: inout Int, name: String) throws(ECDSAError) -> [UInt8] {
            let length = try readHeader(bytes, &offset, tag: 0x02, what: "INTEGER \(name)")
            guard length > 0 else { throw .signatureEncoding(reason: "INTEGER \(name) has no content", offset: offset) }
            let content = bytes[offset..<offset + length]
            if content[content.startIndex] & 0x80 != 0 {
                throw .signatureEncoding(reason: "INTEGER \(name) is negative", offset: offset)
            }
            if length > 1, content[content.startIndex] == 0, content[content.startIndex + 1] & 0x80 == 0 {
                throw .signatureEncoding(reason: "INTEGER \(name) has a superfluous leading zero byte", offset: offset)
            }
            offset += length
            return Array(content.drop(while: { $0 == 0 }))
        }
    }
}
