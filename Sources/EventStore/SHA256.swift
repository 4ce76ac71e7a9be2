/// SHA-256 (FIPS 180-4), used for the log's hash chain.
public struct SHA256: Sendable {
    /// A 32-byte digest.
    public struct Digest: Sendable, Hashable, CustomStringConvertible {
        /// The digest bytes, big-endian as FIPS 180-4 prints them.
        public var bytes: [UInt8]
        /// The all-zero digest: the chain's predecessor of record 1.
        public static let zero = Digest(bytes: [UInt8](repeating: 0, count: 32))
        public init(bytes: [UInt8]) { self.bytes = bytes }
        /// Lower-case hex.
        public var description: String {
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            var out = [UInt8]()
            out.reserveCapacity(64)
            for b in bytes { out.append(hex[Int(b >> 4)]); out.append(hex[Int(b & 15)]) }
            return String(decoding: out, as: UTF8.self)
        }
    }


    private var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
        (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
    private var buffer: [UInt8] = []
    private var length: UInt64 = 0

    /// A fresh hasher.
    public init() { buffer.reserveCapacity(64) }

    /// Feeds bytes.
    public mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        length &+= UInt64(bytes.count)
        var p = base
        var n = bytes.count
        if !buffer.isEmpty {
            let take = min(64 - buffer.count, n)
            buffer.append(contentsOf: UnsafeRawBufferPointer(start: p, count: take))
            p += take
            n -= take
            if buffer.count == 64 {
                buffer.withUnsafeBytes { compress($0.baseAddress!) }
                buffer.removeAll(keepingCapacity: true)
            }
        }
        while n >= 64 {
            compress(p)
            p += 64
            n -= 64
        }
        if n > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(start: p, count: n)) }
    }

    /// Feeds a byte array.
    public mutating func update(_ bytes: [UInt8]) { bytes.withUnsafeBytes { update($0) } }

    /// Pads and returns the digest.
    public mutating func finalize() -> Digest {
        let bitLength = length &* 8
        var pad: [UInt8] = [0x80]
        let rem = (buffer.count + 1) % 64
        pad.append(contentsOf: [UInt8](repeating: 0, count: rem <= 56 ? 56 - rem : 120 - rem))
        for i in (0..<8).reversed() { pad.append(UInt8(truncatingIfNeeded: bitLength >> (UInt64(i) * 8))) }
        let saved = length
        update(pad)
        length = saved
        var out = [UInt8]()
        out.reserveCapacity(32)
        for w in [h.0, h.1, h.2, h.3, h.4, h.5, h.6, h.7] {
            out.append(UInt8(w >> 24)); out.append(UInt8((w >> 16) & 0xFF))
            out.append(UInt8((w >> 8) & 0xFF)); out.append(UInt8(w & 0xFF))
        }
        return Digest(bytes: out)
    }

    /// The digest of `bytes` in one call.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest {
        var s = SHA256()
        s.update(bytes)
        return s.finalize()
    }

    /// The digest of a byte array in one call.
    public static func hash(_ bytes: [UInt8]) -> Digest { bytes.withUnsafeBytes { hash($0) } }

    private mutating func compress(_ block: UnsafeRawPointer) { Self.compressBlock(&h, block) }
}
