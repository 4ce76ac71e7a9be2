/// A record to append: an idempotency id, the stream it belongs to, and opaque payload bytes.
public struct ProposedRecord: Sendable, Equatable {
    public var id: String
    public var stream: String
    public var payload: [UInt8]
    public init(id: String, stream: String, payload: [UInt8]) {
        self.id = id
        self.stream = stream
        self.payload = payload
    }
}

/// A stored record, copied out of the log.
public struct Record: Sendable, Equatable {
    /// Global position, gapless from 1.
    public var position: UInt64
    /// Version within its stream, gapless from 1.
    public var version: UInt64
    /// Append time, milliseconds since 1970 (UTC).
    public var recorded: Int64
    public var id: String
    public var stream: String
    public var payload: [UInt8]
}

/// A stored record viewed in place during a scan; its buffers are valid only inside the callback.
public struct RecordView {
    public let position: UInt64
    public let version: UInt64
    public let recorded: Int64
    public let id: UnsafeRawBufferPointer
    public let stream: UnsafeRawBufferPointer
    public let payload: UnsafeRawBufferPointer
    /// The whole record body, whose SHA-256 is the chain value at this position.
    let body: UnsafeRawBufferPointer

    init(_ body: FrameBody) {
        self.body = body.bytes
        position = body.position
        version = body.version
        recorded = body.recorded
        id = body.id
        stream = body.stream
        payload = body.payload
    }

    /// The id as a string.
    public var idString: String { String(decoding: id, as: UTF8.self) }
    /// The stream name as a string.
    public var streamString: String { String(decoding: stream, as: UTF8.self) }
    /// A copy that outlives the callback.
    public func copy() -> Record {
        Record(position: position, version: version, recorded: recorded, id: idString, stream: streamString, payload: Array(payload))
    }
}

/// The version a caller expects a stream to be at before its append (optimistic concurrency).
public enum ExpectedVersion: Sendable, Equatable, CustomStringConvertible {
    /// No check.
    case any
    /// The stream must not exist yet.
    case noStream
    /// The stream's last version must be exactly this.
    case exactly(UInt64)

    public var description: String {
        switch self {
        case .any: "any"
        case .noStream: "no stream"
        case .exactly(let v): "version \(v)"
        }
    }
}

/// What an append did, record by record.
public struct AppendReceipt: Sendable, Equatable {
    /// A record written: its index in the batch and where it went.
    public struct Appended: Sendable, Equatable {
        public var index: Int
        public var id: String
        public var position: UInt64
        public var version: UInt64
    }
    /// A record skipped because its id was already in the log (or earlier in the batch).
    public struct Duplicate: Sendable, Equatable {
        public var index: Int
        public var id: String
        public var existingPosition: UInt64
    }
    public var appended: [Appended] = []
    public var duplicates: [Duplicate] = []
    /// When the log recorded the records appended (milliseconds since 1970, one instant per batch);
    /// 0 when none was.
    public var recorded: Int64 = 0
}

/// The head of the log: last position and the hash-chain value an auditor can publish.
public struct LogHead: Sendable, Equatable {
    public var position: UInt64
    public var hash: SHA256.Digest
    public init(position: UInt64, hash: SHA256.Digest) {
        self.position = position
        self.hash = hash
    }
}

/// What opening for append found and repaired.
public struct RecoveryReport: Sendable, Equatable {
    /// Bytes cut from the end of the last segment (a torn or uncommitted tail).
    public var truncatedBytes: Int = 0
    /// Why, if anything was cut.
    public var reason: String?
    /// The segment that was cut.
    public var segment: String?
}
