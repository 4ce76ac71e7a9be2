import EventStore
import SubscriptionDomain

/// Appends JSON Lines to the log: each good line becomes a record (stream = user, payload = the
/// canonical line), appended in atomic batches; bad lines are rejected with `file:line: reason`
/// and kept verbatim for the caller to save. Good lines of a file go in even when others fail.
public struct EventImporter {
    /// A line that did not go in, and why.
    public struct Rejection: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        public var line: Int
        public var reason: String
        /// The line exactly as it was read.
        public var text: [UInt8]
        public var description: String { "\(file):\(line): \(reason)" }
    }

    /// What an import did.
    public struct Summary: Sendable, Equatable {
        public var appended = 0
        public var duplicates = 0
        public var rejected: [Rejection] = []
        /// Store payload types that carry nothing for the ledger, by type.
        public var skipped: [String: Int] = [:]
        public var skippedCount: Int { skipped.values.reduce(0, +) }
        public init() {}
    }

    public let log: EventLog
    public var batchSize = 1000
    /// What the lines are: canonical events (default) or a store's payloads.
    public var source = PayloadSource.canonical
    /// The app's profile (consumable credits for store payloads).
    public var profile = Profile.handz

    public init(log: EventLog) { self.log = log }

    /// Imports one file's bytes (named `file` in messages); `progress` is called after each batch.
    public func importLines(_ bytes: [UInt8], file: String, into summary: inout Summary, progress: (Int) -> Void = { _ in }) throws {
        var batch: [ProposedRecord] = []
        batch.reserveCapacity(batchSize)
        var lineNumber = 0
        var processed = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            let receipt = try log.append(batch)
            summary.appended += receipt.appended.count
            summary.duplicates += receipt.duplicates.count
            processed += batch.count
            batch.removeAll(keepingCapacity: true)
            progress(processed)
        }
        try bytes.withUnsafeBytes { all in
            var start = 0
            while start < all.count {
                var end = start
                while end < all.count && all[end] != 0x0A { end += 1 }
                lineNumber += 1
                var lineEnd = end
                if lineEnd > start && all[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = UnsafeRawBufferPointer(rebasing: all[start..<lineEnd])
                start = end + 1
                if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                do {
                    let events: [Event]
                    switch try StorePayload.map(line, from: source, profile: profile) {
                    case .events(let list): events = list
                    case .skipped(let type): summary.skipped[type, default: 0] += 1; continue
                    }
                    for event in events {
                        var payload: [UInt8] = []
                        EventCodec.encode(event, into: &payload)
                        let size = EventLog.recordSize(id: event.id, stream: event.user, payload: payload.count)
                        guard size <= log.maxRecordSize else {
                            throw EventDecodingError("event is \(size) bytes, over the log's record limit of \(log.maxRecordSize)")
                        }
                        batch.append(ProposedRecord(id: event.id, stream: event.user, payload: payload))
                    }
                    if batch.count >= batchSize { try flush() }
                } catch let error as EventDecodingError {
                    summary.rejected.append(Rejection(file: file, line: lineNumber, reason: error.description, text: Array(line)))
                }
            }
        }
        try flush()
    }
}
