import Cryptography

extension AppleJWSVerifier {
    /// A certificate chain that passed every check independent of the date: what remains per
    /// JWS is the validity windows against `signedDate` and one signature under `leafKey`.
    struct VerifiedChain: Sendable {
        let leafKey: P256.PublicKey
        let leafFingerprint: SHA256.Digest
        /// (position, notBefore, notAfter) for leaf, intermediate, root, in that order.
        let validity: [(AppleJWSError.Position, Int64, Int64)]

        /// Requires `date` inside every certificate's validity period (both ends inclusive).
        func checkValidity(at date: Int64) throws(AppleJWSError) {
            for (position, notBefore, notAfter) in validity {
                if date < notBefore { throw .notYetValid(position, signedDate: date, notBefore: notBefore) }
                if date > notAfter { throw .expired(position, signedDate: date, notAfter: notAfter) }
            }
        }
    }

    /// Verified chains keyed by the SHA-256 of their certificates, oldest evicted first.
    struct ChainCache: Sendable {
        let capacity: Int
        private var entries: [SHA256.Digest: VerifiedChain] = [:]
        private var order: [SHA256.Digest] = []

        init(capacity: Int) { self.capacity = max(0, capacity) }

        var count: Int { entries.count }

        func chain(for key: SHA256.Digest) -> VerifiedChain? { entries[key] }

        mutating func insert(_ chain: VerifiedChain, for key: SHA256.Digest) {
            guard capacity > 0, entries[key] == nil else { return }
            if order.count >= capacity {
                entries[order.removeFirst()] = nil
            }
            entries[key] = chain
            order.append(key)
        }

        mutating func removeAll() {
            entries.removeAll()
            order.removeAll()
        }
    }

    /// The cache key of an x5c chain: SHA-256 over each certificate's length (4 bytes) and DER.
    static func chainKey(_ certificates: [[UInt8]]) -> SHA256.Digest {
        var hasher = SHA256()
        for der in certificates {
            let n = UInt32(truncatingIfNeeded: der.count)
            hasher.update([UInt8(n >> 24), UInt8(truncatingIfNeeded: n >> 16), UInt8(truncatingIfNeeded: n >> 8), UInt8(truncatingIfNeeded: n)])
            hasher.update(der)
        }
        return hasher.finalize()
    }
}
