/// The identity of the running program's code: the GNU build ID the linker writes into the ELF
/// file (`NT_GNU_BUILD_ID`, a hash of the linked output), read from `/proc/self/exe`. Two builds of
/// different code have different build IDs, so a value computed from the code alone (the rules
/// fingerprint) can be kept under it and found again by the same build.
public enum ExecutableIdentity {
    /// The running program's build ID, or nil when it has none or it cannot be read.
    public static func buildID() -> [UInt8]? { try? buildID(ofELF: "/proc/self/exe") }

    /// The build ID in the ELF file at `path` (64-bit, little-endian), or nil when it has none.
    /// Throws when the file cannot be read; a file that is not such an ELF file has none.
    static func buildID(ofELF path: String) throws -> [UInt8]? {
        let file = try PlatformFile(path: path, mode: .readOnly)
        let size = try file.size()
        let header = try file.readBytes(at: 0, count: 64)
        guard header.count == 64, header[0..<4] == [0x7F, 0x45, 0x4C, 0x46], header[4] == 2, header[5] == 1 else { return nil }
        let tableOffset = Int(le(header, 32, 8)), entrySize = Int(le(header, 54, 2)), entries = Int(le(header, 56, 2))
        guard entrySize >= 56, tableOffset > 0, tableOffset <= size, entries <= (size - tableOffset) / entrySize else { return nil }
        let table = try file.readBytes(at: tableOffset, count: entries * entrySize)
        guard table.count == entries * entrySize else { return nil }
        for i in 0..<entries {
            let entry = Array(table[(i * entrySize)..<(i * entrySize + 56)])
            guard le(entry, 0, 4) == 4 else { continue }   // PT_NOTE
            let offset = le(entry, 8, 8), length = le(entry, 32, 8)
            guard offset <= UInt64(size), length <= UInt64(size) - offset, length <= 1 << 20 else { continue }
            if let id = noteBuildID(try file.readBytes(at: Int(offset), count: Int(length))) { return id }
        }
        return nil
    }

    /// The `NT_GNU_BUILD_ID` note among `notes` (each: name size, description size, type, then the
    /// name and the description, each padded to 4 bytes).
    static func noteBuildID(_ notes: [UInt8]) -> [UInt8]? {
        var at = 0
        while at + 12 <= notes.count {
            let nameSize = Int(le(notes, at, 4)), descriptionSize = Int(le(notes, at + 4, 4)), type = le(notes, at + 8, 4)
            let name = at + 12, description = name + (nameSize + 3) / 4 * 4
            guard nameSize <= notes.count, descriptionSize <= notes.count, description + descriptionSize <= notes.count else { return nil }
            if type == 3, nameSize == 4, notes[name..<(name + 4)] == [0x47, 0x4E, 0x55, 0], descriptionSize > 0 {
                return Array(notes[description..<(description + descriptionSize)])
            }
            at = description + (descriptionSize + 3) / 4 * 4
        }
        return nil
    }

    /// The little-endian unsigned integer of `count` bytes at `offset`.
    private static func le(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> UInt64 {
        (0..<count).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * UInt64($1)) }
    }
}
