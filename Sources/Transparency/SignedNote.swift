/// A signed note (C2SP signed-note; Go's golang.org/x/mod/sumdb/note): a text ending in a
/// newline, a blank line, then signature lines `— <name> <base64(keyHash || signature)>`.
public struct SignedNote: Sendable, Equatable {
    /// One signature line.
    public struct Signature: Sendable, Equatable {
        /// The key name of the line.
        public var name: String
        /// The key hash (the first four bytes of the decoded signature, big-endian).
        public var keyHash: UInt32
        /// The signature bytes after the key hash.
        public var signature: [UInt8]
    }

    /// The note text, with its final newline.
    public var text: String
    /// The signature of the verifier it was opened with (verified).
    public var verified: Signature
    /// Signature lines by other keys (not verified: C2SP says to ignore them).
    public var others: [Signature]

    /// At most this many signature lines are read (Go's limit).
    public static let maxSignatures = 100

    static let separator = "— "

    /// The signed note of `text` (which must end in a newline) by `signer`.
    public static func sign(_ text: String, by signer: NoteSigner) throws(NoteError) -> String {
        guard text.hasSuffix("\n") else {
            throw NoteError(.unsignableText, "note text must end with a newline")
        }
        for scalar in text.unicodeScalars where scalar.value < 0x20 && scalar != "\n" {
            throw NoteError(.unsignableText, "note text holds control character U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        let bytes = Array(text.utf8)
        let signature = signer.signature(of: bytes)
        let hash = signer.keyHash
        let prefix: [UInt8] = [UInt8(hash >> 24), UInt8(hash >> 16 & 0xff), UInt8(hash >> 8 & 0xff), UInt8(hash & 0xff)]
        return text + "\n" + separator + signer.name + " " + Base64.encode(prefix + signature) + "\n"
    }

    /// Opens a signed note, checking it as Go's note.Open does with one known key: valid UTF-8,
    /// no control characters but newlines, the signatures after the last blank line, each line
    /// `— name base64` with at least five decoded bytes, at most 100 lines; a line whose name and
    /// key hash are the verifier's must verify, and at least one must.
    public init(opening bytes: [UInt8], verifier: NoteVerifier) throws(NoteError) {
        guard let message = String(validating: bytes, as: UTF8.self) else {
            throw NoteError(.malformedNote, "signed note is not valid UTF-8")
        }
        for scalar in message.unicodeScalars where scalar.value < 0x20 && scalar != "\n" {
            throw NoteError(.malformedNote, "signed note holds control character U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        // The last "\n\n" splits the text (with its final newline) from the signature block.
        var split: Int?
        var i = bytes.count - 2
        while i >= 0 {
            if bytes[i] == 0x0a && bytes[i + 1] == 0x0a { split = i; break }
            i -= 1
        }
        guard let split else {
            throw NoteError(.malformedNote, "signed note has no blank line before its signatures")
        }
        let textBytes = Array(bytes[...split])
        var block = bytes[(split + 2)...]
        guard let lastByte = block.last, lastByte == 0x0a else {
            throw NoteError(.malformedNote, "signed note's signature block is empty or does not end with a newline")
        }
        var verified: Signature?
        var others: [Signature] = []
        var count = 0
        while let end = block.firstIndex(of: 0x0a) {
            let line = block[block.startIndex..<end]
            block = block[(end + 1)...]
            count += 1
            guard count <= Self.maxSignatures else {
                throw NoteError(.malformedNote, "signed note has more than \(Self.maxSignatures) signatures")
            }
            let signature = try Self.parseSignatureLine(line, number: count)
            // Names compare byte for byte (Swift's == would equate canonically equivalent text).
            guard signature.name.utf8.elementsEqual(verifier.name.utf8), signature.keyHash == verifier.keyHash else {
                if !others.contains(signature) { others.append(signature) }
                continue
            }
            // Go verifies the first line of a known key and skips repeats of it.
            if verified != nil { continue }
            guard verifier.verifies(signature.signature, of: textBytes) else {
                throw NoteError(.invalidSignature, "signature by \(verifier.name)+\(NoteVerifier.hex8(verifier.keyHash)) does not verify")
            }
            verified = signature
        }
        guard let verified else {
            throw NoteError(.notSigned, "signed note has no signature by \(verifier.name)+\(NoteVerifier.hex8(verifier.keyHash))")
        }
        text = String(decoding: textBytes, as: UTF8.self)
        self.verified = verified
        self.others = others
    }

    /// Opens a signed note given as text.
    public init(opening text: String, verifier: NoteVerifier) throws(NoteError) {
        try self.init(opening: Array(text.utf8), verifier: verifier)
    }

    /// Parses `— name base64` at the byte level, as Go does: the name ends at the first space byte.
    static func parseSignatureLine(_ line: ArraySlice<UInt8>, number: Int) throws(NoteError) -> Signature {
        let dash = Array(separator.utf8)
        guard line.count >= dash.count, Array(line.prefix(dash.count)) == dash else {
            throw NoteError(.malformedNote, "signature line \(number) does not start with an em dash and a space")
        }
        let rest = line.dropFirst(dash.count)
        let space = rest.firstIndex(of: 0x20) ?? rest.endIndex
        let name = String(decoding: rest[..<space], as: UTF8.self)
        let encoded = space < rest.endIndex ? rest[(space + 1)...] : []
        guard NoteVerifier.isValidKeyName(name) else {
            throw NoteError(.malformedNote, "signature line \(number) has an invalid key name \(quoted(name))")
        }
        guard !encoded.isEmpty, let decoded = Base64.decode(String(decoding: encoded, as: UTF8.self)), decoded.count >= 5 else {
            throw NoteError(.malformedNote, "signature line \(number) for \(name) is not base64 of a key hash and a signature")
        }
        let hash = UInt32(decoded[0]) << 24 | UInt32(decoded[1]) << 16 | UInt32(decoded[2]) << 8 | UInt32(decoded[3])
        return Signature(name: name, keyHash: hash, signature: Array(decoded[4...]))
    }
}
