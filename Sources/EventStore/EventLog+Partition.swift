import Platform
extension EventLog {
    /// The file, in the log's folder, that declares which partition the log holds.
    public static let partitionFileName = "partition"

    /// The partition the log in `directory` declares it holds, or nil if it declares none. A
    /// declaration file that does not read as one is damage, named with its path.
    public static func declaredPartition(directory: String) throws -> StreamPartition? {
        let path = directory + "/" + partitionFileName
        guard let bytes = try DurableFile.read(path: path) else { return nil }
        guard let p = StreamPartition(declaration: bytes) else {
            throw EventStoreError(.damaged, "not a partition declaration (expected one line '\(StreamPartition.partitionerName) p/N')", path: path)
        }
        return p
    }

    /// Declares that this log holds partition `partition` of its streams: from then on every
    /// append of a stream outside it is refused, by every handle. Claiming the partition the log
    /// already declares does nothing; another one is refused, and so is a first claim on a log
    /// that already holds a stream outside it (named). Needs a writer handle.
    public func claim(_ partition: StreamPartition) throws {
        guard access == .write else { throw EventStoreError(.invalidArgument, "this handle is read-only", path: directory) }
        try withWriterLock { () throws in
            try catchUp()
            if let declared = try Self.declaredPartition(directory: directory) {
                partitionDeclaration = declared
                guard declared == partition else {
                    throw EventStoreError(.invalidArgument, "this log holds partition \(declared) (its file \(Self.partitionFileName)), not \(partition)", path: directory)
                }
                return
            }
            // The index files keep hashes of stream names, not the names: a first claim (once per
            // log) reads the log for a stream outside the partition.
            var outside: String?
            try forEach { record in
                let stream = record.streamString
                if !partition.contains(stream), outside.map({ stream < $0 }) ?? true { outside = stream }
            }
            if let foreign = outside {
                throw EventStoreError(.invalidArgument, "cannot declare this log partition \(partition): it holds stream '\(foreign.prefix(80))', of partition \(KafkaPartitioner.partition(of: foreign, count: partition.count))", path: directory)
            }
            try DurableFile.replace(path: directory + "/" + Self.partitionFileName, with: partition.declaration)
            partitionDeclaration = partition
        }
    }

    /// Refuses a batch holding a stream outside the partition the log declares (read again from
    /// its file, under the writer lock, until one is found: another process may have claimed it).
    func checkPartition(_ batch: [ProposedRecord]) throws {
        if partitionDeclaration == nil { partitionDeclaration = try Self.declaredPartition(directory: directory) }
        guard let declared = partitionDeclaration else { return }
        if let foreign = batch.first(where: { !declared.contains($0.stream) }) {
            throw EventStoreError(.invalidArgument, "stream '\(foreign.stream.prefix(80))' is in partition \(KafkaPartitioner.partition(of: foreign.stream, count: declared.count)) of \(declared.count), and this log holds partition \(declared) only (its file \(Self.partitionFileName))", path: directory)
        }
    }
}
