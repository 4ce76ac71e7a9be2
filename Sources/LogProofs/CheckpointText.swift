import Cryptography
import Transparency

/// Reading a signed checkpoint without its key: the note's text (up to its last blank line, as
/// Go's `note.Open` splits it) parsed as a C2SP tlog-checkpoint. For `prove`, which matches the
/// checkpoint against the log and embeds it verbatim; the auditor's checker verifies the signature.
public enum CheckpointText {
    /// The checkpoint in the signed note `signed`, unverified.
    public static func unverified(_ signed: String) throws -> Checkpoint {
        let bytes = Array(signed.utf8)
        var split: Int?
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x0A && bytes[i + 1] == 0x0A { split = i; break }
            i -= 1
        }
        guard let split else { throw ProofStoreError("not a signed checkpoint: no blank line before signature lines") }
        do {
            return try Checkpoint(text: String(decoding: bytes[...split], as: UTF8.self))
        } catch {
            throw ProofStoreError("not a checkpoint: \(error.description)")
        }
    }
}
