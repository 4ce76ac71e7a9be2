#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import EventStore
import SubscriptionDomain
import EventCodec
import StoreAdapters
import Projections

/// Appends JSON Lines to the log: each good line becomes a record (stream = user, payload = the
/// canonical line), appended in atomic batches; bad lines are rejected with `file:line: reason`
/// and handed, as they are found, to a `RejectedLineSink` that keeps them verbatim. Good lines of
/// a file go in even when others fail.
///
/// The input is read in pieces into one buffer of `maxLineSize + readSize` bytes, whatever the
/// file's size: a line is never copied out of it to be decoded or rejected, and a line longer than
/// `maxLineSize` is rejected unread, streamed to the sink in pieces as it goes by.
public struct EventImporter {
    /// A line that did not go in, and why.
    public struct Rejection: Sendable, Equatable, CustomStringConvertible {
        /// The file as named in messages.
        public var file: String
        /// The line's number in the file, from 1.
        public var line: Int
        /// Why, as one line: control characters escaped (`OneLine`), at most
        /// `EventImporter.reasonLimit` characters of the decoder's sentence.
        public var reason: String
        public init(file: String, line: Int, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }
        /// `file:line: reason`, one line (the file name escaped too).
        public var description: String { "\(OneLine.escaped(file)):\(line): \(reason)" }
    }

    /// What an import did.
    public struct Summary: Sendable, Equatable {
        public var appended = 0
        public var duplicates = 0
        /// Lines rejected (each handed to the sink).
        public var rejected = 0
        /// Store payload types that carry nothing for the ledger, by type.
        public var skipped: [String: Int] = [:]
        /// Lines taken from a signed JWS (App Store `signedPayload`) without verifying its signature.
        public var unverifiedJWS = 0
        /// Events left out because their user falls in another partition than `partition`.
        public var otherPartitions = 0
        /// Everything skipped: store payloads that carry nothing, and events of other partitions.
        public var skippedCount: Int { skipped.values.reduce(0, +) + otherPartitions }
        public init() {}
    }

    /// The longest reason kept, in characters: a reason can quote a value of the line.
    public static let reasonLimit = 500

    public let log: EventLog
    /// The most records a batch (one atomic, fsynced append) holds; a streaming group holds at most this many.
    public var batchSize = 1000
    /// The batch size of a plain import of files (`replay-tool import FILE`): fewer, larger batches
    /// cost fewer fsyncs; a crash loses at most the batches not yet acknowledged, as with any size.
    public static let fileBatchSize = 10_000
    /// A batch (or streaming group) is also appended once its records' payloads hold this many
    /// bytes, so that large events do not make a batch of `batchSize` hold gigabytes.
    public var batchBytes = 8 << 20
    /// What the lines are: canonical events (default) or a store's payloads.
    public var source = PayloadSource.canonical
    /// The app's profile (consumable credits for store payloads).
    public var profile = Profile.handz
    /// What became of each line, as it becomes known (a server answering each request from
    /// its own lines): its records' positions once appended (after the fsync), a duplicate's
    /// existing position, a skipped store type, or a rejection. Lines numbered as in `Rejection`.
    public var lineOutcome: (@Sendable (_ line: Int, _ outcome: LineOutcome) -> Void)?
    /// Called for each record appended (not for duplicates), with its stream and payload, once
    /// its batch is in the log (serve's answer cache drops what the record can change).
    public var recordAppended: (@Sendable (_ stream: String, _ payload: [UInt8]) -> Void)?
    /// Called with each batch, the events its records hold (`events[i]` is `batch[i]`'s, as
    /// decoded from its line) and its receipt once the batch is durable, batches in log order, on
    /// the importer's thread (while the next batch is appended, `appendsWhileReading`): what the
    /// import appended, without reading the log again (the event cache an import into an empty
    /// log gathers as it goes).
    public var batchAppended: (@Sendable (_ batch: [ProposedRecord], _ events: [Event], _ receipt: AppendReceipt) -> Void)?

    /// What became of one line (`lineOutcome`).
    public enum LineOutcome: Sendable, Equatable {
        /// A record of the line is now durable at this position.
        case appended(UInt64)
        /// A record of the line was already in the log, at this position.
        case duplicate(UInt64)
        /// A store payload type that carries nothing for the ledger.
        case skipped(String)
        /// The line was rejected, for this reason.
        case rejected(String)
    }

    /// How App Store JWS strings are opened (`--from appstore`): unverified unless the caller
    /// gives an opener that checks each signature chain.
    public var jwsOpener = JWSOpener.unverified
    /// A line of more bytes than this (before its `\n`) is rejected without being decoded.
    /// Default: twice the log's record limit, so that a line whose event could fit in a record is
    /// read (an event's canonical form is about as long as its line), while no line is ever held
    /// whole past that.
    public var maxLineSize: Int
    /// Bytes asked of the input per read.
    public var readSize = 1 << 20
    /// Only events whose user falls in this partition are appended (store payloads: the user they
    /// resolve to); the others are counted in `Summary.otherPartitions`. Checked after a line is
    /// decoded: a bad line is rejected whatever partition it was meant for.
    public var partition: StreamPartition?
    /// A plain import of canonical lines (not `follow`, not store payloads) reads, checks and
    /// encodes the next batch on the caller's thread while the previous one is appended on a
    /// second thread (`BatchAppender`). The log's bytes, the summary, the rejected lines, the
    /// progress calls and the errors are those of appending each batch before reading on: a
    /// rejected line is handed to the sink, and a failed append is reported, only once the batch
    /// before it is settled. False: everything on the caller's thread.
    public var appendsWhileReading = true

    public init(log: EventLog) {
        self.log = log
        self.maxLineSize = 2 * log.maxRecordSize
    }

    /// Imports one file's bytes (named `file` in messages); rejected lines are counted and dropped.
    /// `progress` is called after each batch.
    public func importLines(_ bytes: [UInt8], file: String, into summary: inout Summary, progress: (Int) -> Void = { _ in }) throws {
        var dropped = DroppedLines()
        try importLines(bytes, file: file, rejected: &dropped, into: &summary, progress: progress)
    }

    /// Imports one file's bytes (named `file` in messages), handing rejected lines to `sink`.
    public func importLines(_ bytes: [UInt8], file: String, rejected sink: inout some RejectedLineSink, into summary: inout Summary,
                            progress: (Int) -> Void = { _ in }) throws {
        var offset = 0
        try bytes.withUnsafeBytes { all in
            try importLines(file: file, read: { buffer in
                let n = min(buffer.count, all.count - offset)
                UnsafeMutableRawBufferPointer(rebasing: buffer[0..<n]).copyMemory(from: UnsafeRawBufferPointer(rebasing: all[offset..<offset + n]))
                offset += n
                return n
            }, rejected: &sink, into: &summary, progress: progress)
        }
    }

    /// Imports the lines `read` yields (named `file` in messages). `read` fills the start of the
    /// buffer it is given and returns how many bytes it put there, 0 at the end of the input.
    /// Rejected lines go to `sink` as they are found; `summary` counts what was committed, also
    /// when this throws `ImportInterrupted` part way (a failed append, read or sink).
    public func importLines(file: String, read: (UnsafeMutableRawBufferPointer) throws -> Int, rejected sink: inout some RejectedLineSink,
                            into summary: inout Summary, progress: (Int) -> Void = { _ in }) throws {
        _ = try run(file: file, read: { buffer, _ in
            let n = try read(buffer)
            return n == 0 ? .end : .bytes(n)
        }, rejected: &sink, into: &summary, progress: progress, streaming: false, groupEnded: { _ in })
    }

    /// What a streaming input says when asked for bytes (`follow`).
    public enum InputRead: Equatable, Sendable {
        /// This many bytes were put at the start of the buffer (at least 1).
        case bytes(Int)
        /// The input paused: commit the lines held and acknowledge them, then ask again.
        case pause
        /// The input ended: a last line without its `\n` is a line; commit, acknowledge, return.
        case end
        /// Stop now (a signal): commit and acknowledge the complete lines held; a line whose end
        /// has not arrived is left out, unacknowledged (unless it is already over the line
        /// limit: it is rejected as it would be anyway).
        case stop
    }

    /// One committed group of a streaming import: consecutive lines of the input, appended in
    /// one atomic batch (or none, when nothing in them was new).
    public struct Group: Sendable, Equatable {
        /// Positions of the first and last record the group appended; nil when it appended none.
        public var first: UInt64?
        public var last: UInt64?
        public var appended = 0
        public var duplicates = 0
        public var rejected = 0
        /// Store payloads that carry nothing for the ledger, and events of other partitions.
        public var skipped = 0
        /// The input's lines this group covers, numbered from 1 across the whole stream (blank
        /// lines included): every line up to `lines.upperBound` is now durable or rejected.
        public var lines: ClosedRange<Int>
        public init(first: UInt64? = nil, last: UInt64? = nil, lines: ClosedRange<Int>) {
            self.first = first
            self.last = last
            self.lines = lines
        }
    }

    /// How a streaming import ended.
    public enum FollowEnd: Equatable, Sendable {
        /// The input ended; everything was read.
        case endOfInput
        /// `read` said stop; `heldBytes` bytes of an incomplete line (numbered `line`) were
        /// left out (0: none).
        case stopped(heldBytes: Int, line: Int)
    }

    /// Imports a stream that may never end, committing in groups: a group ends when `read`
    /// says the input paused, when it holds `batchSize` records, at the end of the input and at a
    /// stop. Each group is appended in one atomic, fsynced batch; then `sink.sync()` makes its
    /// rejected lines durable; then `acknowledge` is called with it. A group is never empty of
    /// lines: a pause with nothing held acknowledges nothing. Only complete lines (ending in `\n`,
    /// or ended by the end of the input) go into a group.
    ///
    /// `read(buffer, holding)` is asked for bytes as `importLines`' `read` is; `holding` says
    /// whether complete lines wait to be committed, i.e. whether it may answer `.pause`. The
    /// lines' numbers count across the whole stream. `summary` counts the whole run.
    public func follow(file: String, read: (UnsafeMutableRawBufferPointer, _ holding: Bool) throws -> InputRead,
                       rejected sink: inout some RejectedLineSink, into summary: inout Summary,
                       acknowledge: (Group) throws -> Void) throws -> FollowEnd {
        try run(file: file, read: read, rejected: &sink, into: &summary, progress: { _ in }, streaming: true, groupEnded: acknowledge)
    }

    /// The reader of both: a plain import (flush every `batchSize` records and at the end) or,
    /// `streaming`, one whose every flush ends a group that `groupEnded` acknowledges.
    private func run<Sink: RejectedLineSink>(file: String, read: (UnsafeMutableRawBufferPointer, Bool) throws -> InputRead, rejected sink: inout Sink,
                                             into summary: inout Summary, progress: (Int) -> Void,
                                             streaming: Bool, groupEnded: (Group) throws -> Void) throws -> FollowEnd {
        let limit = max(1, maxLineSize)
        let capacity = limit + max(1, readSize)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 1)
        defer { buffer.deallocate() }
        var batch: [ProposedRecord] = []
        batch.reserveCapacity(batchSize)
        var batchEvents: [Event] = []       // the event of each record of the batch (batchAppended)
        var batchLines: [Int] = []          // the line of each record of the batch (lineOutcome)
        var batchFirstLine = 0
        var batchPayloadBytes = 0
        var lineNumber = 1          // the line being read
        var processed = 0
        var overlong = 0            // bytes so far of a line over the limit, streamed to the sink
        var pendingCR = false       // an overlong piece ended in \r: written only if the line goes on

        var batchUsers: Set<String> = []    // users of the batch not yet appended (RevenueCat aliases)
        // App Store: the user of each (original) transaction, from this import's events and from
        // the log's transaction index (a failed read is the import's failure, never "no user").
        var importTransactionUsers: [String: String] = [:]
        var lookupFailure: (any Error)?
        func userOf(transaction t: String) -> String? {
            if let u = importTransactionUsers[t] { return u }
            do {
                return try Replay.user(ofTransaction: t, in: log)
            } catch {
                lookupFailure = error
                return nil
            }
        }
        var groupFirstLine = 1      // the first line of the group being gathered (streaming)
        var groupStart = summary    // the counts when it began

        // Two threads (`appendsWhileReading`): the batch in flight, and what the lines read since
        // it was submitted counted, added to the summary once it is in (as if it had been
        // appended before they were read).
        let appender = !streaming && source == .canonical && appendsWhileReading && lineOutcome == nil && recordAppended == nil ? BatchAppender(log: log) : nil
        defer { _ = appender?.settle() }
        var heldOtherPartitions = 0
        /// The batch last settled, until it is handed to `batchAppended`.
        var settledBatch: (records: [ProposedRecord], events: [Event], receipt: AppendReceipt)?
        func handSettled() {
            guard let s = settledBatch else { return }
            settledBatch = nil
            batchAppended?(s.records, s.events, s.receipt)
        }
        /// Waits for the batch in flight, counts it, and throws `InFlightFailure` if it failed;
        /// hands it to `batchAppended` unless told not to yet (`flush` first submits the next batch).
        func settle(handing: Bool = true) throws {
            guard let appender else { return }
            if let outcome = appender.settle() {
                switch outcome.result {
                case .success(let receipt):
                    if batchAppended != nil { settledBatch = (outcome.records, outcome.events, receipt) }
                    summary.appended += receipt.appended.count
                    summary.duplicates += receipt.duplicates.count
                    processed += outcome.count
                    summary.otherPartitions += heldOtherPartitions
                    heldOtherPartitions = 0
                    progress(processed)
                case .failure(let error):
                    throw InFlightFailure(line: outcome.firstLine, error: error)
                }
            }
            if handing { handSettled() }
        }

        /// Appends the batch; when streaming, also ends the group (if it has lines) and
        /// acknowledges it once the batch and its rejected lines are durable.
        func flush() throws {
            var receipt: AppendReceipt?
            if !batch.isEmpty, let appender {
                try settle(handing: false)
                appender.submit(batch, events: batchEvents, firstLine: batchFirstLine)
                batch = []
                batchEvents = []
                batchPayloadBytes = 0
                batch.reserveCapacity(batchSize)
                handSettled()
            } else if !batch.isEmpty {
                let appended = try log.append(batch)
                receipt = appended
                batchAppended?(batch, batchEvents, appended)
                batchEvents.removeAll(keepingCapacity: true)
                if let recordAppended {
                    for a in appended.appended { recordAppended(batch[a.index].stream, batch[a.index].payload) }
                }
                if let lineOutcome {
                    for a in appended.appended { lineOutcome(batchLines[a.index], .appended(a.position)) }
                    for d in appended.duplicates { lineOutcome(batchLines[d.index], .duplicate(d.existingPosition)) }
                }
                batchLines.removeAll(keepingCapacity: true)
                summary.appended += appended.appended.count
                summary.duplicates += appended.duplicates.count
                processed += batch.count
                batch.removeAll(keepingCapacity: true)
                batchPayloadBytes = 0
                batchUsers.removeAll(keepingCapacity: true)
                progress(processed)
            }
            guard streaming, lineNumber > groupFirstLine else { return }
            try sink.sync()
            var group = Group(first: receipt?.appended.first?.position, last: receipt?.appended.last?.position,
                              lines: groupFirstLine...(lineNumber - 1))
            group.appended = summary.appended - groupStart.appended
            group.duplicates = summary.duplicates - groupStart.duplicates
            group.rejected = summary.rejected - groupStart.rejected
            group.skipped = summary.skippedCount - groupStart.skippedCount
            groupFirstLine = lineNumber
            groupStart = summary
            try groupEnded(group)
        }
        func reject(_ reason: String) throws {
            try settle()
            let rejection = Rejection(file: file, line: lineNumber, reason: OneLine.escaped(reason, limit: Self.reasonLimit))
            try sink.reject(rejection)
            summary.rejected += 1
            lineOutcome?(lineNumber, .rejected(rejection.reason))
        }
        /// One line (without its \n) that fits the limit: decoded and batched, or rejected.
        func handle(_ whole: UnsafeRawBufferPointer) throws {
            let line = whole.last == 0x0D ? UnsafeRawBufferPointer(rebasing: whole.dropLast()) : whole
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            var records: [ProposedRecord] = []
            var events: [Event] = []    // each record's event, kept when `batchAppended` is set
            var jws = false
            /// An event past the door: nil if it belongs to another partition, else its record
            /// (checked against the catalog and the record limit). `fields` are `event.allFields`.
            func admit(_ event: Event, fields: EventFields) throws -> ProposedRecord? {
                if let partition, !partition.contains(event.user) {
                    if appender?.busy == true { heldOtherPartitions += 1 } else { summary.otherPartitions += 1 }
                    return nil
                }
                try profile.checkCatalog(event)
                if source == .appstore {
                    let ref = event.data.subscriptionRef
                    if let o = ref.originalTransaction { importTransactionUsers[o] = event.user }
                    if let t = ref.transaction { importTransactionUsers[t] = event.user }
                }
                var payload: [UInt8] = []
                payload.reserveCapacity(line.count + 64)   // the canonical form is about as long as the line
                EventCodec.encode(event, fields: fields, into: &payload)
                let size = EventLog.recordSize(id: event.id, stream: event.user, payload: payload.count)
                guard size <= log.maxRecordSize else {
                    throw EventDecodingError("event is \(size) bytes, over the log's record limit of \(log.maxRecordSize)")
                }
                if batchAppended != nil { events.append(event) }
                return ProposedRecord(id: event.id, stream: event.user, payload: payload)
            }
            do {
                if source == .canonical {
                    // StorePayload.map's canonical door (decode, then the value ranges), the event's fields built once.
                    let event = try EventCodec.decode(line)
                    let fields = event.allFields
                    try ValueRanges.check(event, fields: fields)
                    if let record = try admit(event, fields: fields) { records.append(record) }
                } else {
                    let mapped = try StorePayload.map(line, from: source, profile: profile, unverifiedJWS: &jws,
                                                      knownUser: { user in
                                                          if batchUsers.contains(user) { return true }
                                                          do { return try log.version(of: user) > 0 } catch { lookupFailure = error; return false }
                                                      },
                                                      userOfTransaction: { userOf(transaction: $0) }, opener: jwsOpener)
                    // A lookup that failed to read the log decides nothing: the import stops on it.
                    if let failure = lookupFailure { throw failure }
                    switch mapped {
                    case .skipped(let type):
                        summary.skipped[type, default: 0] += 1
                        lineOutcome?(lineNumber, .skipped(type))
                    case .events(let events):
                        for event in events {
                            if let record = try admit(event, fields: event.allFields) { records.append(record) }
                        }
                    }
                }
            } catch let error as EventDecodingError {
                try settle()
                try sink.write(line)
                try reject(error.description)
                return
            }
            if jws { summary.unverifiedJWS += 1 }
            guard !records.isEmpty else { return }
            if batch.isEmpty { batchFirstLine = lineNumber }
            if source == .revenuecat { for r in records { batchUsers.insert(r.stream) } }
            batch += records
            batchEvents += events
            if lineOutcome != nil { batchLines += repeatElement(lineNumber, count: records.count) }
            for r in records { batchPayloadBytes += r.payload.count }
        }
        /// The next piece of a line over the limit, straight to the sink.
        func overlongPiece(_ piece: UnsafeRawBufferPointer) throws {
            guard !piece.isEmpty else { return }
            try settle()
            if pendingCR { try Self.carriageReturn.withUnsafeBytes { try sink.write($0) } }
            pendingCR = piece.last == 0x0D
            try sink.write(pendingCR ? UnsafeRawBufferPointer(rebasing: piece.dropLast()) : piece)
            overlong += piece.count
        }
        func overlongEnd() throws {
            try reject("line is \(overlong) bytes, over the import limit of \(limit) bytes a line (the log's records hold at most \(log.maxRecordSize))")
            overlong = 0
            pendingCR = false
        }
        /// A line found whole in the buffer, or the last piece of an overlong one.
        func lineEnds(_ line: UnsafeRawBufferPointer) throws {
            if overlong > 0 || line.count > limit {
                try overlongPiece(line)
                try overlongEnd()
            } else {
                try handle(line)
            }
            lineNumber += 1
            if batch.count >= batchSize || batchPayloadBytes >= batchBytes { try flush() }
        }

        do {
            var filled = 0, start = 0, scan = 0
            while true {
                while scan < filled, let found = memchr(buffer.baseAddress! + scan, 0x0A, filled - scan) {
                    let newline = buffer.baseAddress!.distance(to: found)
                    try lineEnds(UnsafeRawBufferPointer(rebasing: buffer[start..<newline]))
                    start = newline + 1
                    scan = start
                }
                scan = filled
                if overlong > 0 || filled - start > limit {
                    try overlongPiece(UnsafeRawBufferPointer(rebasing: buffer[start..<filled]))
                    start = filled
                    scan = filled
                }
                if start > 0 {
                    if filled > start { memmove(buffer.baseAddress!, buffer.baseAddress! + start, filled - start) }
                    filled -= start
                    scan -= start
                    start = 0
                }
                switch try read(UnsafeMutableRawBufferPointer(rebasing: buffer[filled..<min(capacity, filled + max(1, readSize))]), lineNumber > groupFirstLine) {
                case .bytes(let n):
                    precondition(n > 0 && filled + n <= capacity, "read returned \(n) for a buffer of \(capacity - filled) bytes")
                    filled += n
                    continue
                case .pause:
                    try flush()
                    continue
                case .end:
                    if filled > 0 || overlong > 0 { try lineEnds(UnsafeRawBufferPointer(rebasing: buffer[0..<filled])) }
                    try flush()
                    try settle()
                    return .endOfInput
                case .stop:
                    // A line already over the limit is rejected whatever its end would be.
                    if overlong > 0 { try lineEnds(UnsafeRawBufferPointer(rebasing: buffer[0..<filled])) }
                    let held = filled
                    try flush()
                    try settle()
                    return .stopped(heldBytes: held, line: lineNumber)
                }
            }
        } catch {
            // The batch in flight came before the lines being read: its failure is the one to report.
            var failure = error
            var line = batch.isEmpty ? lineNumber : batchFirstLine
            if !(error is InFlightFailure) { do { try settle() } catch { failure = error } }
            if let inFlight = failure as? InFlightFailure {
                failure = inFlight.error
                line = inFlight.line
            }
            throw ImportInterrupted(file: file, line: line, underlying: failure)
        }
    }

    /// A batch appended on the second thread failed; `line` is its first line.
    private struct InFlightFailure: Error {
        var line: Int
        var error: any Error
    }

    static let carriageReturn: [UInt8] = [0x0D]
}

/// Rejected lines counted and dropped: for callers that only want the summary.
private struct DroppedLines: RejectedLineSink {
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {}
    mutating func reject(_ rejection: EventImporter.Rejection) throws {}
}
