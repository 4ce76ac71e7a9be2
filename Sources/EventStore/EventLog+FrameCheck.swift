import Platform

/// The check of a segment's committed frames that every handle adopting the index files makes on
/// the last segment at open (docs/log-format.md, "Fault model"): each frame's header
/// CRC, length, body CRC and layout, and consecutive positions. It is on the path of every read,
/// so it reads the file in chunks that stay in the CPU's cache, checks the bodies' CRCs three at a
/// time (three independent chains of the CRC instruction), and splits a long segment in two at a
/// position the manifest sampled, one half per core.
extension EventLog {
    /// A frame whose header checked and whose body's CRC is still to check.
    private struct HeldBody {
        let at: Int
        let length: Int
        let crc: UInt32
        let position: UInt64
    }

    /// Below this many bytes a segment is checked on one core (a second thread costs more than it saves).
    static let splitCheckMinimum = 4 << 20

    /// Checks the frames between two offsets as `checkFrames` does, the two halves at once when the
    /// range is long and `midway` (a sampled record's position and offset) lies inside it. Should
    /// either half fail, or the halves not meet at `midway`, the whole range is checked again on
    /// one core, so that the error named is the first damage, as a single pass names it.
    static func checkFramesOnBothCores(of file: PlatformFile, path: String, from start: Int, to end: Int,
                                       firstPosition: UInt64, midway: (position: UInt64, offset: Int)?,
                                       splittingFrom minimum: Int = splitCheckMinimum) throws {
        guard end - start >= minimum, let midway, midway.offset > start, midway.offset < end,
              midway.position > firstPosition else {
            _ = try checkFrames(of: file, path: path, from: start, to: end, firstPosition: firstPosition)
            return
        }
        let (first, second) = Parallel.both(
            { Result { try checkFrames(of: file, path: path, from: start, to: midway.offset, firstPosition: firstPosition) } },
            { Result { try checkFrames(of: file, path: path, from: midway.offset, to: end, firstPosition: midway.position) } })
        if case .success(let next) = first, next == midway.position, case .success = second { return }
        _ = try checkFrames(of: file, path: path, from: start, to: end, firstPosition: firstPosition)
    }

    /// Checks every frame of `file` between two offsets (CRC32C of header and body, layout,
    /// consecutive positions from `firstPosition`); any failure is damage naming the offset and
    /// position. Returns the position after the last frame.
    @discardableResult
    static func checkFrames(of file: PlatformFile, path: String, from start: Int, to end: Int, firstPosition: UInt64) throws -> UInt64 {
        var buffer = [UInt8](repeating: 0, count: 512 << 10)
        var held: [HeldBody] = []
        held.reserveCapacity(4 << 10)
        var offset = start, expected = firstPosition
        while offset < end {
            let want = min(buffer.count, end - offset)
            let got = try buffer.withUnsafeMutableBytes { try file.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), at: offset) }
            guard got == want else { throw EventStoreError(.damaged, "segment is shorter than its committed length", path: path, offset: offset + got) }
            var parsed = 0
            var grow = 0
            try buffer.withUnsafeBytes { raw in
                let b = UnsafeRawBufferPointer(rebasing: raw[0..<want])
                held.removeAll(keepingCapacity: true)
                // A frame's own failure is named only once the bodies before it are found sound.
                func damaged(_ why: String, at: Int, position: UInt64) throws -> Never {
                    try checkHeldBodies(held, in: b, path: path, chunkOffset: offset)
                    throw EventStoreError(.damaged, why, path: path, offset: offset + at, position: position)
                }
                scanning: while parsed < want {
                    switch LogFormat.frameHeader(in: b, at: parsed, maxBodySize: Int(UInt32.max)) {
                    case .end:
                        break scanning
                    case .torn(let why):
                        if offset + want == end { try damaged(why, at: parsed, position: expected) }
                        if parsed == 0 { grow = LogFormat.frameHeaderSize + Int(b.le32(0)) }
                        break scanning
                    case .damaged(let why):
                        try damaged(why, at: parsed, position: expected)
                    case .whole(let length, let crc):
                        let body = UnsafeRawBufferPointer(rebasing: b[(parsed + LogFormat.frameHeaderSize)..<(parsed + LogFormat.frameHeaderSize + length)])
                        let problem = LogFormat.layoutProblem(ofBody: body)
                            ?? (body.le64(0) == expected ? nil : "record holds position \(body.le64(0)) where \(expected) was expected")
                        if let problem {
                            try damaged(CRC32C.checksum(body) == crc ? problem : LogFormat.bodyChecksumMismatch, at: parsed, position: expected)
                        }
                        held.append(HeldBody(at: parsed, length: length, crc: crc, position: expected))
                        expected &+= 1   // a crafted position of UInt64.max is followed by none that matches
                        parsed += LogFormat.frameHeaderSize + length
                    }
                }
                try checkHeldBodies(held, in: b, path: path, chunkOffset: offset)
            }
            if parsed == 0 {
                // Nothing whole in a full buffer: a frame longer than it (read again with room), or damage.
                guard grow > buffer.count else { throw EventStoreError(.damaged, "zero fill or a cut frame inside the committed records", path: path, offset: offset, position: expected) }
                // A length that runs past the committed records is damage, named before any buffer is made for it.
                guard grow <= end - offset else {
                    throw EventStoreError(.damaged, "frame body cut short (\(end - offset - LogFormat.frameHeaderSize) of \(grow - LogFormat.frameHeaderSize) bytes)",
                                          path: path, offset: offset, position: expected)
                }
                buffer = [UInt8](repeating: 0, count: grow)
            }
            offset += parsed
        }
        return expected
    }

    /// Checks the held bodies' CRCs, three at a time, in order: the first that fails is named.
    private static func checkHeldBodies(_ held: [HeldBody], in b: UnsafeRawBufferPointer, path: String, chunkOffset: Int) throws {
        func body(_ h: HeldBody) -> UnsafeRawBufferPointer {
            UnsafeRawBufferPointer(rebasing: b[(h.at + LogFormat.frameHeaderSize)..<(h.at + LogFormat.frameHeaderSize + h.length)])
        }
        func mismatch(_ h: HeldBody) -> EventStoreError {
            EventStoreError(.damaged, LogFormat.bodyChecksumMismatch, path: path, offset: chunkOffset + h.at, position: h.position)
        }
        var i = 0
        while i + 3 <= held.count {
            let (x, y, z) = CRC32C.checksums(body(held[i]), body(held[i + 1]), body(held[i + 2]))
            if x != held[i].crc { throw mismatch(held[i]) }
            if y != held[i + 1].crc { throw mismatch(held[i + 1]) }
            if z != held[i + 2].crc { throw mismatch(held[i + 2]) }
            i += 3
        }
        for h in held[i...] where CRC32C.checksum(body(h)) != h.crc { throw mismatch(h) }
    }
}
