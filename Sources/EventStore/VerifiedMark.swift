import Platform
/// `DIR/verified`: the head the last intact `verify` reached, so that a scrub (`verify
/// --since-last`) checks only what was appended after it. 52 bytes: magic `LDGVRFY1`, position
/// (u64 LE), chain hash (32 bytes), CRC32C of those 48 bytes. A file that fails any check is
/// ignored (the scrub becomes a full verify), never trusted.
public enum VerifiedMark {
    public static let fileName = "verified"
    static let magic = Array("LDGVRFY1".utf8)

    /// The mark of the log in `directory`, or nil if it has none that reads.
    public static func read(directory: String) throws -> LogHead? {
        guard let b = try DurableFile.read(path: directory + "/" + fileName), b.count == 52, Array(b[0..<8]) == magic else { return nil }
        return b.withUnsafeBytes { r -> LogHead? in
            guard CRC32C.checksum(UnsafeRawBufferPointer(rebasing: r[0..<48])) == r.le32(48) else { return nil }
            return LogHead(position: r.le64(8), hash: SHA256.Digest(raw: UnsafeRawBufferPointer(rebasing: r[16..<48])))
        }
    }

    /// Records `head` as verified (written atomically and durably).
    public static func write(_ head: LogHead, directory: String) throws {
        var b = magic
        b.appendLE(head.position)
        head.hash.append(to: &b)
        b.appendLE(CRC32C.checksum(b))
        try DurableFile.replace(path: directory + "/" + fileName, with: b)
    }
}
