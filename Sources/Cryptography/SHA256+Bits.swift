extension SHA256.Digest {
    /// Bit `index` (0 to 255) of the digest, most significant bit of the first byte first: the
    /// path of a key in a binary trie keyed by digests.
    public func bit(_ index: Int) -> Bool {
        precondition(index >= 0 && index < 256, "a SHA-256 digest has 256 bits")
        let word: UInt64
        switch index >> 6 {
        case 0: word = words.0
        case 1: word = words.1
        case 2: word = words.2
        default: word = words.3
        }
        return word & (1 << UInt64(63 - index & 63)) != 0
    }

    /// Whether the two digests agree on their first `count` bits (0 to 256).
    public func sharesPrefix(with other: SHA256.Digest, bits count: Int) -> Bool {
        precondition(count >= 0 && count <= 256, "a SHA-256 digest has 256 bits")
        let a = [words.0, words.1, words.2, words.3], b = [other.words.0, other.words.1, other.words.2, other.words.3]
        var left = count, i = 0
        while left >= 64 {
            if a[i] != b[i] { return false }
            left -= 64
            i += 1
        }
        if left == 0 { return true }
        let mask = ~UInt64(0) << UInt64(64 - left)
        return a[i] & mask == b[i] & mask
    }

    /// Byte-wise (big-endian) order of digests.
    public static func precedesBytewise(_ a: SHA256.Digest, _ b: SHA256.Digest) -> Bool {
        (a.words.0, a.words.1, a.words.2, a.words.3) < (b.words.0, b.words.1, b.words.2, b.words.3)
    }
}
