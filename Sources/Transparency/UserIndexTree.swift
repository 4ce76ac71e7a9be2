import Cryptography

/// The user index: a sparse Merkle tree of depth at most 256 keyed by SHA-256 of the user id.
/// The bits of the key, most significant first, choose the path from the root (0: left). An
/// empty subtree hashes to 32 zero bytes; a subtree holding one entry hashes to that entry's
/// leaf hash (`UserIndexEntry.leafHash`, RFC 9162 leaf hashing) and sits as high as it can;
/// any other subtree hashes to `MerkleTree.nodeHash(left, right)`. A set of entries has
/// exactly one tree, and changing k entries rewrites k paths: O(k log n) nodes.
public enum UserIndexTree {
    /// The hash of the empty subtree (and the root of the empty index).
    public static let emptyHash = SHA256.Digest.zero

    /// The deepest a path goes: the key's bit count.
    public static let maxDepth = 256

    /// Bit `depth` of `key` (0 is the most significant bit of the first byte).
    public static func bit(_ key: SHA256.Digest, _ depth: Int) -> Bool { key.bit(depth) }

    /// The first position in `entries` (sorted, agreeing on the bits above `depth`) whose key
    /// has bit `depth` set: a binary search.
    static func split(_ entries: ArraySlice<UserIndexEntry>, depth: Int) -> Int {
        var lo = entries.startIndex, hi = entries.endIndex
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if entries[mid].key.bit(depth) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The hash of the subtree `ref` (zero bytes for the empty one).
    public static func hash(_ ref: UInt64, in store: some UserIndexNodeStore) throws -> SHA256.Digest {
        ref == 0 ? emptyHash : try store.node(ref).hash
    }

    /// The entry whose key is `key` under `root`, if there is one (O(depth) reads).
    public static func lookup(_ key: SHA256.Digest, root: UInt64, in store: some UserIndexNodeStore) throws -> UserIndexEntry? {
        var ref = root, depth = 0
        while ref != 0 {
            switch try store.node(ref) {
            case .leaf(let entry):
                return entry.key == key ? entry : nil
            case .inner(_, _, let left, let right):
                guard depth < maxDepth else { throw UserIndexError("a path deeper than \(maxDepth) levels") }
                ref = bit(key, depth) ? right : left
                depth += 1
            }
        }
        return nil
    }

    /// The proof of `user`'s entry, or of its absence, under `root` (an index of `entries` users).
    public static func proof(user: String, root: UInt64, entries: UInt64, in store: some UserIndexNodeStore) throws -> UserIndexProof {
        let key = UserIndexEntry.key(user: user)
        var siblings: [SHA256.Digest] = []
        var ref = root
        while ref != 0 {
            switch try store.node(ref) {
            case .leaf(let entry):
                return UserIndexProof(entries: entries, siblings: siblings, membership: entry.key == key ? .present(entry) : .absent(entry))
            case .inner(let leftHash, let rightHash, let left, let right):
                guard siblings.count < maxDepth else { throw UserIndexError("a path deeper than \(maxDepth) levels") }
                if bit(key, siblings.count) {
                    siblings.append(leftHash)
                    ref = right
                } else {
                    siblings.append(rightHash)
                    ref = left
                }
            }
        }
        return UserIndexProof(entries: entries, siblings: siblings, membership: .absent(nil))
    }

    /// Puts `changes` (sorted by key, no key twice) into the tree `root`, replacing entries of
    /// the same key; returns the new root and how many keys were not in the tree before.
    /// Only the paths to the changed keys are written; `root`'s own nodes stay as they were.
    public static func update(root: UInt64, changes: [UserIndexEntry], in store: inout some UserIndexNodeStore) throws -> (root: UInt64, added: UInt64) {
        for i in changes.indices.dropFirst() where !SHA256.Digest.precedes(changes[i - 1].key, changes[i].key) {
            throw UserIndexError("changes \(i - 1) and \(i) are not in strictly increasing key order")
        }
        var added: UInt64 = 0
        let ref = try update(root, changes[...], depth: 0, &store, &added)
        return (ref, added)
    }

    static func update(_ ref: UInt64, _ changes: ArraySlice<UserIndexEntry>, depth: Int, _ store: inout some UserIndexNodeStore,
                       _ added: inout UInt64) throws -> UInt64 {
        if changes.isEmpty { return ref }
        if ref == 0 {
            added += UInt64(changes.count)
            return try build(changes, depth: depth, &store)
        }
        switch try store.node(ref) {
        case .leaf(let entry):
            var merged = Array(changes)
            let at = merged.firstIndex { !SHA256.Digest.precedes($0.key, entry.key) } ?? merged.endIndex
            if at == merged.endIndex || merged[at].key != entry.key {
                merged.insert(entry, at: at)
                added += UInt64(changes.count)
            } else {
                added += UInt64(changes.count - 1)
            }
            return try build(merged[...], depth: depth, &store)
        case .inner(let leftHash, let rightHash, let left, let right):
            guard depth < maxDepth else { throw UserIndexError("a path deeper than \(maxDepth) levels") }
            let split = split(changes, depth: depth)
            let newLeft = try update(left, changes[..<split], depth: depth + 1, &store, &added)
            let newRight = try update(right, changes[split...], depth: depth + 1, &store, &added)
            let l = newLeft == left ? leftHash : try hash(newLeft, in: store)
            let r = newRight == right ? rightHash : try hash(newRight, in: store)
            return try store.add(.inner(leftHash: l, rightHash: r, left: newLeft, right: newRight))
        }
    }

    /// The subtree at `depth` of `entries` (sorted, distinct keys, agreeing on their first
    /// `depth` bits).
    static func build(_ entries: ArraySlice<UserIndexEntry>, depth: Int, _ store: inout some UserIndexNodeStore) throws -> UInt64 {
        if entries.isEmpty { return 0 }
        if entries.count == 1, let only = entries.first { return try store.add(.leaf(only)) }
        guard depth < maxDepth else { throw UserIndexError("two entries with the same key") }
        let split = split(entries, depth: depth)
        let left = try build(entries[..<split], depth: depth + 1, &store)
        let right = try build(entries[split...], depth: depth + 1, &store)
        return try store.add(.inner(leftHash: try hash(left, in: store), rightHash: try hash(right, in: store), left: left, right: right))
    }
}
