import HardwareSHA256

/// SHA-256 (FIPS 180-4), used for the log's hash chain.
///
/// The CPU's SHA instructions when it has them (x86-64 SHA-NI), else unrolled Swift rounds
/// (`SHA256+Compress.swift`); both are checked against the published vectors and each other.
public struct SHA256: Sendable {
    /// Whether blocks are compressed by the CPU's SHA instructions (read once).
    public static let usesHardware = hardware_sha256_available() != 0

    /// A 32-byte digest, held inline (four big-endian words).
    public struct Digest: Sendable, Hashable, CustomStringConvertible {
        var words: (UInt64, UInt64, UInt64, UInt64)

        /// The all-zero digest: the chain's predecessor of record 1.
        public static let zero = Digest(words: (0, 0, 0, 0))

        package init(words: (UInt64, UInt64, UInt64, UInt64)) { self.words = words }

        /// A digest from its 32 bytes, as FIPS 180-4 prints them.
        public init(bytes: [UInt8]) {
            precondition(bytes.count == 32, "a SHA-256 digest is 32 bytes")
            self = bytes.withUnsafeBytes { Digest(raw: $0) }
        }

        package init(raw b: UnsafeRawBufferPointer) {
            words = (UInt64(bigEndian: b.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                     UInt64(bigEndian: b.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                     UInt64(bigEndian: b.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                     UInt64(bigEndian: b.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
        }

        /// The digest bytes, big-endian as FIPS 180-4 prints them.
        public var bytes: [UInt8] {
            var out: [UInt8] = []
            append(to: &out)
            return out
        }

        /// Appends the 32 bytes to `out`.
        public func append(to out: inout [UInt8]) {
            withUnsafeBytes(of: (words.0.bigEndian, words.1.bigEndian, words.2.bigEndian, words.3.bigEndian)) { out.append(contentsOf: $0) }
        }

        /// Whether these are the 32 bytes at `b`.
        public func matches(_ b: UnsafeRawBufferPointer) -> Bool {
            b.count == 32 && Digest(raw: b) == self
        }

        public static func == (a: Digest, b: Digest) -> Bool {
            a.words.0 == b.words.0 && a.words.1 == b.words.1 && a.words.2 == b.words.2 && a.words.3 == b.words.3
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(words.0); hasher.combine(words.1); hasher.combine(words.2); hasher.combine(words.3)
        }

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
        if n >= 64 {
            Self.compressBlocks(&h, p, count: n / 64)
            p += n / 64 * 64
            n -= n / 64 * 64
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
        return Self.digest(h)
    }

    static func digest(_ h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)) -> Digest {
        Digest(words: (UInt64(h.0) << 32 | UInt64(h.1), UInt64(h.2) << 32 | UInt64(h.3),
                       UInt64(h.4) << 32 | UInt64(h.5), UInt64(h.6) << 32 | UInt64(h.7)))
    }

    /// The digest of `bytes` in one call, without allocating: whole blocks straight from the input,
    /// the padded tail in a stack buffer.
    public static func hash(_ bytes: UnsafeRawBufferPointer) -> Digest { hash(bytes, hardware: usesHardware) }

    /// The same, with the CPU's instructions or the Swift rounds as told (tests compare the two).
    @inline(__always)
    package static func hash(_ bytes: UnsafeRawBufferPointer, hardware: Bool) -> Digest {
        var h: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32) =
            (0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)
        let n = bytes.count
        var offset = 0
        if let base = bytes.baseAddress, n >= 64 {
            compressBlocks(&h, base, count: n / 64, hardware: hardware)
            offset = n / 64 * 64
        }
        let rest = n - offset
        withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
            tail.initializeMemory(as: UInt8.self, repeating: 0)
            if rest > 0 { tail.baseAddress!.copyMemory(from: bytes.baseAddress! + offset, byteCount: rest) }
            tail[rest] = 0x80
            let blocks = rest + 9 <= 64 ? 1 : 2
            tail.storeBytes(of: (UInt64(n) &* 8).bigEndian, toByteOffset: blocks * 64 - 8, as: UInt64.self)
            compressBlocks(&h, UnsafeRawPointer(tail.baseAddress!), count: blocks, hardware: hardware)
        }
        return digest(h)
    }

    /// The digest of a byte array in one call.
    public static func hash(_ bytes: [UInt8]) -> Digest { bytes.withUnsafeBytes { hash($0) } }

    private mutating func compress(_ block: UnsafeRawPointer) { Self.compressBlocks(&h, block, count: 1) }

    /// Compresses `count` consecutive blocks, with the CPU's instructions when it has them.
    @inline(__always)
    static func compressBlocks(_ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ p: UnsafeRawPointer, count: Int,
                               hardware: Bool = usesHardware) {
        if hardware {
            withUnsafeMutableBytes(of: &h) { state in
                hardware_sha256_blocks(state.baseAddress!.assumingMemoryBound(to: UInt32.self), p, count)
            }
        } else {
            softwareCompressBlocks(&h, p, count: count)
        }
    }

    /// The same with the Swift rounds alone (the fallback, and the reference the instructions are tested against).
    static func softwareCompressBlocks(_ h: inout (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32), _ p: UnsafeRawPointer, count: Int) {
        for k in 0..<count { compressBlock(&h, p + k * 64) }
    }
}
