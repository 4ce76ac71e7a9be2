import Foundation
import EventStore
import Transparency
import Platform

/// The proof files kept beside a log (`DIR/proofs/`): the Merkle tree's stored hashes
/// (`hashes`, brought up to the head incrementally), the completeness index's nodes and
/// versions (`user-nodes`, `user-versions`: `UserIndexFile`, brought forward by the users
/// touched), and a lock file serialising the processes that update them.
///
/// Everything here is derived from the log and checked before use: a file whose header does not
/// match the log (another log, a shorter log, a damaged file) is built again, and every proof is
/// verified against the checkpoint's roots before it is handed out; a proof that does not verify
/// rebuilds the files from the log and is made once more.
public final class ProofStore {
    /// The log the proofs are of (opened with its indexes: proofs read one user's stream).
    public let log: EventLog
    /// `DIR/proofs`.
    public let directory: String
    let lockFile: RandomAccessFile
    let tree: TreeHashFile
    let users: UserIndexFile
    var accumulator = MerkleAccumulator()
    private var ownNotes: [String] = []

    /// What was found wrong with a derived file and built again, one sentence each.
    public var notes: [String] { ownNotes + users.notes }

    /// Opens (creating) the proof files of `log`, waiting for any other process updating them,
    /// and checks the hashes file against the log.
    public init(log: EventLog) throws {
        self.log = log
        directory = log.directory + "/proofs"
        try PlatformDirectory.create(directory)
        lockFile = try RandomAccessFile(path: directory + "/lock", create: true)
        try lockFile.lock()
        tree = try TreeHashFile(path: directory + "/hashes")
        users = try UserIndexFile(directory: directory)
        try checkTree()
        try removeSortedIndexes()
    }

    /// Removes the one-file-per-checkpoint sorted indexes (`checkpoints/<size>`) an earlier
    /// version of the tool kept: nothing reads them.
    func removeSortedIndexes() throws {
        let folder = directory + "/checkpoints"
        guard PlatformDirectory.isDirectory(folder) else { return }
        let names = try PlatformDirectory.list(folder).filter { name in name.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
        for name in names { try DurableFile.remove(path: folder + "/" + name) }
        if !names.isEmpty { ownNotes.append("\(folder): \(names.count) sorted user index file(s) of an earlier format removed") }
    }

    deinit { lockFile.unlock() }

    /// The tree size the hashes file covers.
    public var treeSize: UInt64 { tree.header.size }

    /// Hashes read from the hashes file so far.
    public var hashReads: Int { tree.reads }

    // MARK: The tree

    /// Checks the hashes file's header against the log and its frontier against its root;
    /// starts it again (noting why) when anything does not match.
    func checkTree() throws {
        if let problem = tree.problem { return try restartTree(problem) }
        let header = tree.header
        let length = try tree.file.size()
        if length == 0 { return try tree.reset() }
        if header.size > log.head.position {
            return try restartTree("it covers \(header.size) records, the log has \(log.head.position)")
        }
        if length < TreeHashFile.length(size: header.size) {
            return try restartTree("it is shorter than its header says (\(length) bytes)")
        }
        guard let chain = try log.chainHash(at: header.size) else {
            return try restartTree("the log does not reach position \(header.size)")
        }
        if chain != header.chainHash {
            return try restartTree("it was made from another log (the chain hash at position \(header.size) differs)")
        }
        let resumed = try MerkleAccumulator(size: header.size, hashes: tree)
        if resumed.root != header.root {
            return try restartTree("its stored hashes do not give the root its header records")
        }
        if length > TreeHashFile.length(size: header.size) {
            // Hashes of an append that was cut before its header: written again.
            try tree.file.truncate(to: TreeHashFile.length(size: header.size))
        }
        accumulator = resumed
    }

    func restartTree(_ reason: String) throws {
        ownNotes.append("\(tree.file.path): \(reason); built again from the log")
        try tree.reset()
        accumulator = MerkleAccumulator()
    }

    /// Brings the hashes file up to the log's head, reading only the records after what it covers.
    /// With `visit`, also hands every record from `visitFrom` on (whose predecessor's chain hash is
    /// `visitAfter`) to it with its user and leaf hash.
    public func catchUp() throws { try catchUp(visitFrom: nil, visitAfter: .zero, visit: nil) }

    func catchUp(visitFrom: UInt64?, visitAfter: SHA256.Digest, visit: ((UInt64, String, SHA256.Digest) throws -> Void)?) throws {
        let covered = tree.header.size
        var start = covered + 1, after = tree.header.chainHash
        if let visitFrom, visitFrom < start { start = visitFrom; after = visitAfter }
        guard start <= log.head.position else { return }
        var line: [UInt8] = []
        line.reserveCapacity(4096)
        var pending: [UInt8] = []
        pending.reserveCapacity(1 << 20 + 4096)
        var written = StoredHashLayout.count(size: covered)
        var accumulator = self.accumulator
        try log.forEach(from: start, after: start == 1 ? nil : after) { record in
            line.removeAll(keepingCapacity: true)
            let user = try ExportLine.encode(record, into: &line)
            let leaf: SHA256.Digest
            if record.position > covered {
                let stored = accumulator.append(leaf: line)
                leaf = stored[0].hash
                for s in stored { s.hash.append(to: &pending) }
                if pending.count >= 1 << 20 {
                    try tree.write(pending, atPosition: written)
                    written += UInt64(pending.count / 32)
                    pending.removeAll(keepingCapacity: true)
                }
            } else {
                leaf = MerkleTree.leafHash(line)
            }
            try visit?(record.position, user, leaf)
        }
        if !pending.isEmpty { try tree.write(pending, atPosition: written) }
        if accumulator.size > covered {
            guard let chain = try log.chainHash(at: accumulator.size) else {
                throw ProofStoreError("the log no longer reaches position \(accumulator.size)")
            }
            try tree.commit(TreeHashFile.Header(size: accumulator.size, chainHash: chain, root: accumulator.root))
        }
        self.accumulator = accumulator
    }

    /// The tree's root at `size` (at most what the hashes file covers): O(log size) reads.
    public func root(size: UInt64) throws -> SHA256.Digest {
        guard size <= tree.header.size else { throw ProofStoreError("the tree covers \(tree.header.size) records, not \(size)") }
        if size == tree.header.size { return tree.header.root }
        return size == 0 ? MerkleTree.emptyRoot : try MerkleTree.root(size: size, hashes: tree)
    }

    /// Empties the hashes file and builds it again from the whole log.
    public func rebuildTree(because reason: String) throws {
        try restartTree(reason)
        try catchUp()
    }

    // MARK: The completeness index

    /// The completeness index as of log position `size` (at most the head): the version kept
    /// for that size if it checks against the log, else the latest earlier one that does (or the
    /// empty index) brought forward with the records after it, only their users' paths written.
    func index(at size: UInt64) throws -> UserIndexFile.Version {
        guard size <= log.head.position else { throw ProofStoreError("the log has \(log.head.position) records, not \(size)") }
        do {
            return try bringIndex(to: size)
        } catch let e as ProofStoreError {
            // A damaged node on a path read: the index is built again from the log, once.
            try users.reset("\(e.message)")
            return try bringIndex(to: size)
        }
    }

    func bringIndex(to size: UInt64) throws -> UserIndexFile.Version {
        if let kept = try checkedVersion(size: size, exact: true) { return kept }
        let base = try checkedVersion(size: size, exact: false)
        let baseSize = base?.size ?? 0, baseRef = base?.rootRef ?? 0
        var chains = UserChains()
        let users = self.users
        try catchUp(visitFrom: baseSize + 1, visitAfter: base?.chainHash ?? .zero) { position, user, leaf in
            guard position > baseSize && position <= size else { return }
            try chains.append(user: user, leafHash: leaf) { key in try UserIndexTree.lookup(key, root: baseRef, in: users) }
        }
        guard let chain = try log.chainHash(at: size) else { throw ProofStoreError("the log does not reach position \(size)") }
        var store = users
        let (root, added) = try UserIndexTree.update(root: baseRef, changes: chains.sortedEntries(), in: &store)
        return try users.commit(size: size, chainHash: chain, rootRef: root, entries: (base?.entries ?? 0) + added)
    }

    /// The latest version for `size` (`exact`) or below it, if it checks (its chain hash is the
    /// log's at its size, its root node hashes to its root); one that does not starts the index
    /// again (noting why): versions build on each other.
    func checkedVersion(size: UInt64, exact: Bool) throws -> UserIndexFile.Version? {
        let candidates = users.versions.filter { exact ? $0.size == size : $0.size < size }
        guard let version = candidates.max(by: { $0.size < $1.size }) else { return nil }
        let problem: String
        do {
            if try log.chainHash(at: version.size) != version.chainHash {
                problem = "its version at position \(version.size) was made from another log (the chain hash differs)"
            } else if try UserIndexTree.hash(version.rootRef, in: users) != version.root {
                problem = "its version at position \(version.size) does not hash to its root"
            } else {
                return version
            }
        } catch let e as ProofStoreError {
            problem = e.message
        }
        try users.reset("\(users.nodes.path): \(problem)")
        return nil
    }

    // MARK: Checkpoints and proofs

    /// Signs a checkpoint of the log's head (origin: the signer's name), with the completeness
    /// index's head on its `user-smt` line.
    public func checkpoint(signer: NoteSigner) throws -> String {
        let size = log.head.position
        // Bringing the index forward also brings the tree up in the same pass over new records.
        let index = try index(at: size)
        try catchUp()
        return try Checkpoint(origin: signer.name, size: size, root: try root(size: size), userIndex: index.head).signed(by: signer)
    }

    /// The proof of `user`'s records among the first `size` records of `signedCheckpoint`: each
    /// record's export line and inclusion path, and the user's index entry (or its absence).
    /// Throws if the checkpoint is not of this log (root or index head differ).
    public func userProof(user: String, signedCheckpoint: String) throws -> UserProof {
        let checkpoint = try CheckpointText.unverified(signedCheckpoint)
        guard let indexHead = try checkpoint.userIndexHead() else {
            throw ProofStoreError("the checkpoint has no user-smt line (not made by checkpoint)")
        }
        try checkSize(checkpoint)
        var attempt = 0
        while true {
            attempt += 1
            try catchUp()
            try checkRoot(checkpoint, rebuild: attempt == 1)
            let index = try index(at: checkpoint.size)
            guard index.head == indexHead else {
                if attempt == 1 {
                    try users.reset("\(users.nodes.path): its index at size \(checkpoint.size) is not the checkpoint's user-smt line")
                    continue
                }
                throw ProofStoreError("the checkpoint's user index (\(indexHead.extensionLine)) is not this log's index at size \(checkpoint.size) (\(index.head.extensionLine))")
            }
            var records: [UserProof.Record] = []
            var line: [UInt8] = []
            for record in try log.records(inStream: user) where record.position <= checkpoint.size {
                line.removeAll(keepingCapacity: true)
                try ExportLine.encode(record, into: &line)
                records.append(UserProof.Record(index: record.position - 1, line: String(decoding: line, as: UTF8.self),
                                                inclusion: try MerkleTree.inclusionProof(index: record.position - 1, size: checkpoint.size, hashes: tree)))
            }
            let completeness: UserIndexProof
            do {
                completeness = try UserIndexTree.proof(user: user, root: index.rootRef, entries: index.entries, in: users)
            } catch let e as ProofStoreError where attempt == 1 {
                try users.reset("\(e.message)")
                continue
            }
            let proof = UserProof(checkpoint: signedCheckpoint, size: checkpoint.size, user: user, records: records, completeness: completeness)
            if let failure = Self.selfCheck(proof, checkpoint: checkpoint, indexHead: indexHead) {
                guard attempt == 1 else { throw ProofStoreError("the proof made from the log does not verify: \(failure)") }
                try users.reset("\(users.nodes.path): a proof made from it did not verify (\(failure))")
                try rebuildTree(because: "a proof made from it did not verify (\(failure))")
                continue
            }
            return proof
        }
    }

    /// The consistency proof from the tree of signed checkpoint `old` to that of `new`.
    public func consistencyProof(from old: String, to new: String) throws -> ConsistencyProof {
        let from = try CheckpointText.unverified(old), to = try CheckpointText.unverified(new)
        guard from.size <= to.size else {
            throw ProofStoreError("the --from checkpoint (size \(from.size)) is later than the --checkpoint one (size \(to.size))")
        }
        try checkSize(to)
        var attempt = 0
        while true {
            attempt += 1
            try catchUp()
            try checkRoot(from, rebuild: attempt == 1)
            try checkRoot(to, rebuild: attempt == 1)
            let proof = try ConsistencyProof(from: from.size, to: to.size, log: tree)
            if from.size > 0 {
                do {
                    try MerkleTree.verifyConsistency(oldSize: from.size, newSize: to.size, oldRoot: from.root, newRoot: to.root, proof: proof.proof)
                } catch {
                    guard attempt == 1 else { throw ProofStoreError("the consistency proof made from the log does not verify: \(error.message)") }
                    try rebuildTree(because: "a consistency proof made from it did not verify (\(error.message))")
                    continue
                }
            }
            return proof
        }
    }

    func checkSize(_ checkpoint: Checkpoint) throws {
        guard checkpoint.size <= log.head.position else {
            throw ProofStoreError("not a checkpoint of this log: the checkpoint is of \(checkpoint.size) records, the log has \(log.head.position)")
        }
    }

    /// Checks that the checkpoint's root is the tree's at its size; a mismatch first rebuilds
    /// the hashes file (`rebuild`), in case they were damaged, then is the checkpoint's fault.
    func checkRoot(_ checkpoint: Checkpoint, rebuild: Bool) throws {
        var ours = try root(size: checkpoint.size)
        if ours != checkpoint.root && rebuild {
            try rebuildTree(because: "its root at size \(checkpoint.size) is not the checkpoint's")
            ours = try root(size: checkpoint.size)
        }
        guard ours == checkpoint.root else {
            throw ProofStoreError("not a checkpoint of this log: its root at size \(checkpoint.size) is \(Base64.encode(checkpoint.root.bytes)), the log's is \(Base64.encode(ours.bytes))")
        }
    }

    /// What an auditor's checker would refuse in `proof` (all but the signature), or nil.
    static func selfCheck(_ proof: UserProof, checkpoint: Checkpoint, indexHead: UserIndexHead) -> String? {
        var chain = RecordChain()
        for record in proof.records {
            let leaf = MerkleTree.leafHash(Array(record.line.utf8))
            do {
                try MerkleTree.verifyInclusion(leafHash: leaf, index: record.index, size: checkpoint.size, proof: record.inclusion, root: checkpoint.root)
            } catch {
                return "record \(record.index): \(error.message)"
            }
            chain.append(leafHash: leaf)
        }
        do {
            let indexed = try proof.completeness.verify(user: proof.user, head: indexHead)
            if indexed != chain { return "the user's \(chain.count) records do not give the index entry (\(indexed.count) records)" }
        } catch {
            return error.message
        }
        return nil
    }
}
