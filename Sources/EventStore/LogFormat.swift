/// The byte layout of segments and record frames (documented in docs/log-format.md).
///
/// All integers are little-endian. A segment is a 32-byte header followed by frames; a frame is
/// a 12-byte frame header (body length, CRC32C of the body, CRC32C of those 8 bytes) and a body.
enum LogFormat {
    static let magic: [UInt8] = Array("EVTLOGSG".utf8)
    static let version: UInt32 = 1
    static let segmentHeaderSize = 32
    static let frameHeaderSize = 12
    static let bodyFixedSize = 64
    static let commitFlag: UInt32 = 1

    /// The file name of the segment whose first position is `base`.
    static func segmentName(base: UInt64) -> String {
        let digits = String(base)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".seg"
    }

    /// The base position encoded in a segment file name, or nil if the name is not a segment's.
    static func basePosition(ofSegmentNamed name: String) -> UInt64? {
        guard name.hasSuffix(".seg"), name.utf8.count == 24 else { return nil }
        return UInt64(name.dropLast(4))
    }

    static func segmentHeader(base: UInt64) -> [UInt8] {
        var h = magic
        h.appendLE(version)
        h.appendLE(UInt32(segmentHeaderSize))
        h.appendLE(base)
        h.appendLE(CRC32C.checksum(h))
        h.appendLE(UInt32(0))
        return h
    }

    /// Checks a segment header; returns its base position.
    static func checkSegmentHeader(_ b: UnsafeRawBufferPointer, path: String) throws -> UInt64 {
        guard b.count >= segmentHeaderSize else {
            throw EventStoreError(.damaged, "segment header is cut short (\(b.count) of \(segmentHeaderSize) bytes)", path: path, offset: 0)
        }
        guard b.prefix(8).elementsEqual(magic) else {
            throw EventStoreError(.unsupportedFormat, "not a log segment (bad magic number)", path: path, offset: 0)
        }
        let v = b.le32(8)
        guard v == version else {
            throw EventStoreError(.unsupportedFormat, "segment format version \(v) is not supported (this build reads version \(version))", path: path, offset: 8)
        }
        guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[0..<24])) == b.le32(24) else {
            throw EventStoreError(.damaged, "segment header checksum mismatch", path: path, offset: 0)
        }
        // Bytes 28-31 are reserved: written as zero, and outside the header CRC, so checked here.
        guard b.le32(28) == 0 else {
            throw EventStoreError(.damaged, "segment header reserved bytes 28-31 are not zero", path: path, offset: 28)
        }
        return b.le64(16)
    }

    /// Appends one frame (header and body) to `out`; returns the SHA-256 of the body.
    static func appendFrame(
        to out: inout [UInt8], position: UInt64, version: UInt64, recorded: Int64, flags: UInt32,
        previousHash: SHA256.Digest, id: String, stream: String, payload: [UInt8]
    ) -> SHA256.Digest {
        let bodyLength = bodyFixedSize + id.utf8.count + stream.utf8.count + payload.count
        let start = out.count
        out.append(contentsOf: repeatElement(0, count: frameHeaderSize))
        out.appendLE(position)
        out.appendLE(version)
        out.appendLE(UInt64(bitPattern: recorded))
        out.appendLE(flags)
        out.appendLE(UInt16(id.utf8.count))
        out.appendLE(UInt16(stream.utf8.count))
        previousHash.append(to: &out)
        appendUTF8(id, to: &out)
        appendUTF8(stream, to: &out)
        out.append(contentsOf: payload)
        return out.withUnsafeMutableBytes { b in
            let body = UnsafeRawBufferPointer(rebasing: b[(start + frameHeaderSize)...])
            b.storeBytes(of: UInt32(bodyLength).littleEndian, toByteOffset: start, as: UInt32.self)
            b.storeBytes(of: CRC32C.checksum(body).littleEndian, toByteOffset: start + 4, as: UInt32.self)
            let headCRC = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[start..<(start + 8)]))
            b.storeBytes(of: headCRC.littleEndian, toByteOffset: start + 8, as: UInt32.self)
            return SHA256.hash(body)
        }
    }

    /// Appends a string's UTF-8 bytes, in one copy when the string is contiguous (most are).
    @inline(__always) static func appendUTF8(_ s: String, to out: inout [UInt8]) {
        if s.utf8.withContiguousStorageIfAvailable({ out.append(contentsOf: $0) }) == nil { out.append(contentsOf: s.utf8) }
    }

    /// The outcome of looking at the bytes at one offset of a segment.
    enum Frame {
        /// A whole, checked frame; `body` is a slice of the scanned buffer.
        case record(FrameBody, frameLength: Int)
        /// The segment ends inside this frame (or in zero fill): a torn write.
        case torn(String)
        /// Whole bytes that fail their checks.
        case damaged(String)
        /// The buffer ends exactly here.
        case end
    }

    /// Reads the frame at `offset` of `b`, checking lengths and CRCs.
    static func frame(in b: UnsafeRawBufferPointer, at offset: Int, maxBodySize: Int) -> Frame {
        switch frameHeader(in: b, at: offset, maxBodySize: maxBodySize) {
        case .end: return .end
        case .torn(let why): return .torn(why)
        case .damaged(let why): return .damaged(why)
        case .whole(let length, let bodyCRC):
            let body = UnsafeRawBufferPointer(rebasing: b[(offset + frameHeaderSize)..<(offset + frameHeaderSize + length)])
            if CRC32C.checksum(body) != bodyCRC { return .damaged(bodyChecksumMismatch) }
            if let why = layoutProblem(ofBody: body) { return .damaged(why) }
            return .record(FrameBody(bytes: body, idLength: Int(body.le16(28)), streamLength: Int(body.le16(30))), frameLength: frameHeaderSize + length)
        }
    }

    /// The outcome of looking at a frame's header alone.
    enum FrameHeader {
        /// A header that checks, whose body of `length` bytes is whole in the buffer (its CRC not yet checked).
        case whole(length: Int, bodyCRC: UInt32)
        case torn(String)
        case damaged(String)
        case end
    }

    /// Checks the frame header at `offset` of `b` (its CRC, the body's length and that the body
    /// is whole), leaving the body's CRC to the caller: `frame(in:at:maxBodySize:)` checks it at
    /// once, a segment's check (`EventLog.checkFrames`) three bodies at a time.
    static func frameHeader(in b: UnsafeRawBufferPointer, at offset: Int, maxBodySize: Int) -> FrameHeader {
        let remaining = b.count - offset
        if remaining == 0 { return .end }
        if remaining < frameHeaderSize {
            return .torn("frame header cut short (\(remaining) of \(frameHeaderSize) bytes)")
        }
        let length = Int(b.le32(offset))
        let bodyCRC = b.le32(offset + 4)
        let headCRC = b.le32(offset + 8)
        if CRC32C.checksum(UnsafeRawBufferPointer(rebasing: b[offset..<(offset + 8)])) != headCRC {
            if UnsafeRawBufferPointer(rebasing: b[offset...]).allSatisfy({ $0 == 0 }) {
                return .torn("zero fill after the last frame")
            }
            return .damaged("frame header checksum mismatch")
        }
        if length < bodyFixedSize || length > maxBodySize {
            return .damaged("frame length \(length) out of range")
        }
        if remaining - frameHeaderSize < length {
            return .torn("frame body cut short (\(remaining - frameHeaderSize) of \(length) bytes)")
        }
        return .whole(length: length, bodyCRC: bodyCRC)
    }

    static let bodyChecksumMismatch = "record checksum (CRC32C) mismatch"

    /// What is wrong with the layout of a body whose CRC checks (its id and stream lengths), if anything.
    static func layoutProblem(ofBody body: UnsafeRawBufferPointer) -> String? {
        bodyFixedSize + Int(body.le16(28)) + Int(body.le16(30)) > body.count ? "id and stream lengths exceed the record" : nil
    }
}

/// A checked record body, viewed in place.
struct FrameBody {
    let bytes: UnsafeRawBufferPointer
    let idLength: Int
    let streamLength: Int
    var position: UInt64 { bytes.le64(0) }
    var version: UInt64 { bytes.le64(8) }
    var recorded: Int64 { Int64(bitPattern: bytes.le64(16)) }
    var flags: UInt32 { bytes.le32(24) }
    var isCommit: Bool { flags & LogFormat.commitFlag != 0 }
    var previousHash: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[32..<64]) }
    var id: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[64..<(64 + idLength)]) }
    var stream: UnsafeRawBufferPointer {
        UnsafeRawBufferPointer(rebasing: bytes[(64 + idLength)..<(64 + idLength + streamLength)])
    }
    var payload: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: bytes[(64 + idLength + streamLength)...]) }
}

extension UnsafeRawBufferPointer {
    @inline(__always) func le16(_ o: Int) -> UInt16 { UInt16(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt16.self)) }
    @inline(__always) func le32(_ o: Int) -> UInt32 { UInt32(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt32.self)) }
    @inline(__always) func le64(_ o: Int) -> UInt64 { UInt64(littleEndian: loadUnaligned(fromByteOffset: o, as: UInt64.self)) }
}

extension Array where Element == UInt8 {
    @inline(__always) mutating func appendLE<T: FixedWidthInteger>(_ v: T) {
        Swift.withUnsafeBytes(of: v.littleEndian) { append(contentsOf: $0) }
    }
}
