import Platform
/// The durable record of the log's committed head (Kafka's recovery-point checkpoint,
/// EventStoreDB's writer checkpoint): `segments/committed-head`, rewritten after every committed
/// batch once that batch's bytes are fsynced, so whatever it says was provably committed.
///
/// It draws the line between a torn tail and damage. At or before its position, every record must
/// be there, whole, and the record at its position must hash to its hash: a short log there is lost
/// committed records, a bad frame is damage, and neither is ever cut. Past it, whatever is not whole
/// valid frames (a half-written frame, zero fill left by a power loss) is a torn tail, which a
/// writer cuts.
///
/// The file holds two 64-byte slots written in turn, each: magic `LDGHEAD1`, position (u64 LE),
/// chain hash (32 bytes), CRC32C of those 48 bytes, 12 zero bytes. A torn write spoils one slot at
/// most; readers take the valid slot with the higher position. One pwrite and one fdatasync of one
/// block per batch is what it costs the append path.
struct CommittedHead {
    static let fileName = "committed-head"
    static let magic = Array("LDGHEAD1".utf8)
    static let slotSize = 64

    /// What the file says: the newest valid slot, and which slot that is.
    struct Reading {
        var head: LogHead
        var slot: Int
    }

    /// What a reader found at `path`.
    enum Found {
        /// No file: a log written before the checkpoint existed, or a new one.
        case none
        /// Neither slot is whole: the line is unknown until a writer writes it again.
        case unreadable(String)
        case head(Reading)
    }

    /// Reads the checkpoint at `path`.
    static func read(path: String) throws -> Found {
        // An empty file is one created by a writer that was stopped before its first write.
        guard let bytes = try PlatformDirectory.readFile(path), !bytes.isEmpty else { return .none }
        var best: Reading?
        bytes.withUnsafeBytes { b in
            for slot in 0..<2 where b.count >= (slot + 1) * slotSize {
                let s = UnsafeRawBufferPointer(rebasing: b[(slot * slotSize)..<((slot + 1) * slotSize)])
                guard s.prefix(8).elementsEqual(magic),
                      CRC32C.checksum(UnsafeRawBufferPointer(rebasing: s[0..<48])) == s.le32(48) else { continue }
                let head = LogHead(position: s.le64(8), hash: SHA256.Digest(raw: UnsafeRawBufferPointer(rebasing: s[16..<48])))
                if best == nil || head.position > best!.head.position { best = Reading(head: head, slot: slot) }
            }
        }
        guard let best else { return .unreadable("neither slot of the committed-head checkpoint is whole (\(bytes.count) bytes)") }
        return .head(best)
    }

    /// The damage of a log that ends at `end`, before the committed head `line`: committed records were lost.
    static func lostRecords(end: UInt64, line: LogHead, path: String) -> EventStoreError {
        EventStoreError(.damaged, "committed records were lost: the log ends at position \(end) but position \(line.position) was committed (segments/\(fileName))", path: path, position: end + 1)
    }

    /// The damage of a log with records and no readable checkpoint.
    static func missing(records: UInt64, problem: String?, path: String) -> EventStoreError {
        EventStoreError(.damaged, "the committed-head checkpoint is \(problem == nil ? "missing" : "unreadable (\(problem!))") while the log holds \(records) committed record(s): whether committed records were lost cannot be told; `replay-tool recover` says what the log holds, and `recover --accept-loss` accepts it", path: path)
    }

    /// One slot's bytes for `head`.
    static func slot(_ head: LogHead) -> [UInt8] {
        var s = magic
        s.appendLE(head.position)
        head.hash.append(to: &s)
        s.appendLE(CRC32C.checksum(s))
        s.append(contentsOf: repeatElement(0, count: slotSize - s.count))
        return s
    }
}

/// The writer's open checkpoint file: writes each new head into the slot not holding the newest.
final class CommittedHeadWriter {
    let path: String
    /// Opened (created) at the first write, so an empty log has no checkpoint file.
    private var file: PlatformFile?
    private var nextSlot: Int

    init(path: String, current: CommittedHead.Found) {
        self.path = path
        if case .head(let reading) = current { nextSlot = 1 - reading.slot } else { nextSlot = 0 }
    }

    /// Writes `head` durably (the caller has already fsynced the records it names). The first
    /// write of a new file also fsyncs the folder, so the file's name is as durable as its bytes.
    func write(_ head: LogHead) throws {
        let created = self.file == nil && !PlatformDirectory.exists(path)
        let file = try self.file ?? PlatformFile(path: path, mode: .createReadWrite)
        self.file = file
        try CommittedHead.slot(head).withUnsafeBytes { (b) throws in
            try file.writeAll(b, at: nextSlot * CommittedHead.slotSize)
        }
        try file.sync()
        if created { try PlatformDirectory.sync(DurableFile.Replacement.parent(of: path)) }
        nextSlot = 1 - nextSlot
    }
}
