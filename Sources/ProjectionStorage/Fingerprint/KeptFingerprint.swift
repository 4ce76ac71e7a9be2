import EventStore
import Platform

/// The rules fingerprint of one build and one profile, kept in a file so that later processes of
/// the same build skip computing it (it folds the corpus through every read model: about 25 ms,
/// most of a query answered from the time index). The file is named by what the value derives
/// from: the build ID of the running program (`ExecutableIdentity`, a hash of the linked code)
/// and a SHA-256 of the profile's JSON; a program without a build ID keeps nothing.
///
/// `projections/rules-<build ID, hex>-<profile digest, 16 hex>.fingerprint` holds one line:
/// `LDGRFP1 <fingerprint, 16 hex> <CRC32C of what precedes the space before it, 8 hex>`. A file
/// of another length or form, or whose CRC does not match, is not used, and is written again.
struct KeptFingerprint {
    static let magic = "LDGRFP1"
    let path: String

    init?(folder: String, profileJSON: String, buildID: [UInt8]? = ExecutableIdentity.buildID()) {
        guard let buildID, !buildID.isEmpty else { return nil }
        let digest = EventStore.SHA256.hash(Array(profileJSON.utf8)).description.prefix(16)
        path = folder + "/rules-" + buildID.map { String($0, radix: 16).leftPadded(2) }.joined() + "-" + digest + ".fingerprint"
    }

    /// The kept fingerprint, or nil when there is none or the file is not whole.
    func read() -> String? {
        guard let bytes = try? DurableFile.read(path: path), bytes.count == 7 + 1 + 16 + 1 + 8 + 1,
              let text = String(validating: bytes, as: UTF8.self), text.last == "\n" else { return nil }
        let parts = text.dropLast().split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == Self.magic, Self.isHex(parts[1]), Self.isHex(parts[2]),
              parts[2] == Self.crc(parts[0] + " " + parts[1]) else { return nil }
        return String(parts[1])
    }

    /// Keeps `fingerprint` (replacing the file whole) in the folder if it exists (it is not made
    /// here); a folder that cannot be written keeps nothing.
    func write(_ fingerprint: String) {
        let line = Self.magic + " " + fingerprint
        let bytes = Array((line + " " + Self.crc(Substring(line)) + "\n").utf8)
        guard let file = try? DurableFile.Replacement(path: path, createFolder: false) else { return }
        do {
            try bytes.withUnsafeBytes { try file.append($0) }
            try file.commit()
        } catch {
            // Unwritten (a full disk): the next process computes it again.
        }
    }

    private static func crc(_ text: Substring) -> String { String(CRC32C.checksum(String(text)), radix: 16).leftPadded(8) }

    private static func isHex(_ s: Substring) -> Bool { !s.isEmpty && s.allSatisfy { $0.isHexDigit && !$0.isUppercase } }
}

private extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
