import Platform
/// Writing the index files (docs/log-format.md, "Index files"): a new run per kind from the
/// entries held in memory, merges of runs of similar size, then the manifest, all under the writer lock.
extension EventLog {
    /// Writes the entries held in memory to a run file and the manifest, so the next handle
    /// indexes nothing before this head. Takes the writer lock (waits for it).
    public func saveIndexes() throws {
        guard usesIndexFiles else { return }
        if access == .write {
            try withWriterLock { () throws in try saveIndexesLocked(reloadIfStale: true) }
        } else {
            try saveIndexesIfUnlocked(reloadIfStale: true)
        }
    }

    /// A reader saves what it indexed if the log's lock is free at once (never waits for a writer).
    func saveIndexesIfUnlocked(reloadIfStale: Bool) throws {
        guard usesIndexFiles, PlatformDirectory.exists(directory + "/writer.lock") else { return }
        let lock = try PlatformFile(path: directory + "/writer.lock", mode: .readWrite)
        guard (try? lock.lockExclusive(wait: false)) != nil else { return }
        defer { lock.unlock() }
        try saveIndexesLocked(reloadIfStale: reloadIfStale)
    }

    /// Under the writer lock: if another handle replaced the manifest since this one loaded it,
    /// start again from that manifest (it covers a head at or before ours); then write out.
    /// Without `reloadIfStale` (in the middle of a catch-up) a stale handle writes nothing.
    func saveIndexesLocked(reloadIfStale: Bool) throws {
        guard usesIndexFiles, head.position > 0, headLocation != nil else { return }
        // The manifest on disk, if this handle could adopt it (same key function).
        let onDisk = (try? PlatformDirectory.readFile(manifestPath)).flatMap { $0 }
            .flatMap { try? IndexManifest.decode($0).get() }.flatMap { $0.keysName == keysName ? $0 : nil }
        if onDisk?.generation != manifestGeneration {
            guard reloadIfStale else { return }
            resetIndexState()
            // Another handle saved since this one loaded: start from its files. None usable (removed,
            // damaged, another key function) while this handle reads runs: index the segments again.
            if onDisk != nil { try loadIndexFiles() }
            try catchUpRepairingIndexes()
        }
        guard recent.count > 0, let headLocation else { return }
        // Inside the log's folder only: a log whose folder was removed meanwhile does not make it again.
        try PlatformDirectory.createChild(indexDirectory)
        var kept = runs
        for kind in IndexKind.all {
            var entries: [IndexRun.Entry] = []
            switch kind {
            case IndexKind.ids:
                entries.reserveCapacity(recent.count)
                recent.ids.forEach { k, v in entries.append(.init(key: k, value: v)) }
                for (k, vs) in recent.moreIDs { for v in vs { entries.append(.init(key: k, value: v)) } }
            case IndexKind.streams:
                entries.reserveCapacity(recent.count)
                for e in recent.streamEntries { entries.append(.init(key: e.key, value: e.value)) }
            default:
                for (k, vs) in recent.keys { for v in vs { entries.append(.init(key: k, value: v)) } }
            }
            guard !entries.isEmpty else { continue }
            IndexRun.sort(&entries)
            let nonce = UInt64.random(in: 1...UInt64.max)
            var writer = try IndexRunWriter(path: indexDirectory + "/" + IndexManifest.runName(kind: kind, nonce: nonce), kind: kind, nonce: nonce, count: entries.count)
            for e in entries { try writer.add(e) }
            try writer.finish()
            kept.append(try IndexRun(path: writer.path, kind: kind, nonce: nonce, count: entries.count))
            try mergeRuns(of: kind, in: &kept)
        }
        let generation = max(onDisk?.generation ?? 0, manifestGeneration ?? 0) + 1
        let location = Self.unpack(headLocation)
        let manifest = IndexManifest(
            generation: generation, keysName: keysName, head: head, headLocation: headLocation,
            segmentBases: segments.prefix(Int(location.segment) + 1).map(\.base),
            runs: kept.map { .init(kind: $0.kind, nonce: $0.nonce, count: $0.count) },
            samples: positionSamples.map { .init(position: $0.position, location: Self.pack($0.location), recorded: $0.recorded) })
        let temporary = manifestPath + ".tmp-\(PlatformProcess.id)"
        let file = try PlatformFile(path: temporary, mode: .createReadWrite)
        try file.truncate(to: 0)
        try manifest.encoded().withUnsafeBytes { try file.writeAll($0, at: 0) }
        try PlatformDirectory.move(temporary, to: manifestPath)
        runs = kept
        manifestGeneration = generation
        recent = RecentEntries()
        // Run files no manifest names any more (merged away, or left by a process that died) go.
        let names = Set(kept.map { ($0.path as String).split(separator: "/").last.map(String.init) ?? "" })
        for name in (try? PlatformDirectory.list(indexDirectory)) ?? [] where name.hasSuffix(".run") && !names.contains(name) {
            try? PlatformDirectory.remove(indexDirectory + "/" + name)
        }
    }

    /// Merges the newest runs of `kind` while the one before is at most twice as big (so a log of
    /// N records has O(log N) runs of each kind and each entry is rewritten O(log N) times).
    private func mergeRuns(of kind: UInt32, in runs: inout [IndexRun]) throws {
        while true {
            let mine = runs.indices.filter { runs[$0].kind == kind }
            guard mine.count >= 2 else { return }
            let older = runs[mine[mine.count - 2]], newer = runs[mine[mine.count - 1]]
            guard older.count <= 2 * newer.count || mine.count > 12 else { return }
            let nonce = UInt64.random(in: 1...UInt64.max)
            var writer = try IndexRunWriter(path: indexDirectory + "/" + IndexManifest.runName(kind: kind, nonce: nonce), kind: kind, nonce: nonce, count: older.count + newer.count)
            // Two sorted streams: the newer run is read whole block by block alongside the older one.
            var pending: [IndexRun.Entry] = []
            var next = 0
            var block = 0
            let newerBlocks = IndexRun.blocks(for: newer.count)
            func refill() throws {
                if next == pending.count && block < newerBlocks { pending = try newer.block(block); block += 1; next = 0 }
            }
            try refill()
            try older.forEach { e in
                try refill()
                while next < pending.count && pending[next] < e {
                    try writer.add(pending[next]); next += 1
                    try refill()
                }
                try writer.add(e)
            }
            try refill()
            while next < pending.count { try writer.add(pending[next]); next += 1; try refill() }
            try writer.finish()
            let merged = try IndexRun(path: writer.path, kind: kind, nonce: nonce, count: older.count + newer.count)
            runs.remove(at: mine[mine.count - 1])
            runs[mine[mine.count - 2]] = merged
        }
    }
}
