import Platform
/// An error of the event log: a code, a sentence, and where (file path, byte offset, position).
public struct EventStoreError: LocatedError, Sendable, Equatable {
    /// What kind of failure this is; the command line maps codes to exit statuses.
    public enum Code: String, Sendable {
        /// A system call failed (disk full, permission, ...).
        case io
        /// Bytes on disk fail their checks: CRC, hash chain, sequence, header.
        case damaged
        /// A segment written by an unknown format version or not a segment at all.
        case unsupportedFormat
        /// Another writer holds the log's lock.
        case locked
        /// An expected stream version did not match.
        case wrongExpectedVersion
        /// A record exceeds the configured maximum size.
        case recordTooLarge
        /// The caller passed something invalid.
        case invalidArgument
        /// A file named for output is not one this tool writes (a link, a device, a folder...).
        case unsuitableFile
    }

    public var code: Code
    public var message: String
    public var path: String?
    public var offset: Int?
    public var position: UInt64?
    /// The operating system's error number, for a failed system call.
    public var errno: Int32?

    public init(_ code: Code, _ message: String, path: String? = nil, offset: Int? = nil, position: UInt64? = nil) {
        self.code = code
        self.message = message
        self.path = path
        self.offset = offset
        self.position = position
    }

    /// A failure of the operating system met by the log, kept with its place and errno
    /// (`.locked` stays `.locked`; an unsuitable output name is `.unsuitableFile`).
    public init(_ failure: SystemError) {
        let code: Code = switch failure.code {
        case .failed: .io
        case .locked: .locked
        case .unsuitableFile: .unsuitableFile
        }
        self.init(code, failure.message, path: failure.path, offset: failure.offset)
        errno = failure.errno
    }

    /// One line: `path@offset (position N): message`.
    public var description: String {
        var place = path ?? ""
        if let offset { place += "@\(offset)" }
        if let position { place += place.isEmpty ? "position \(position)" : " (position \(position))" }
        return place.isEmpty ? message : "\(place): \(message)"
    }
}
