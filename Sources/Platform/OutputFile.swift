#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a person names for a command's output (`--out FILE`): written whole under a temporary
/// name in the same folder, then renamed over the name, so a reader never sees half of it and a
/// failed write leaves the old file (or nothing) in place.
///
/// Only a regular file is ever replaced. A symbolic link, a folder, a FIFO, a device or a socket
/// under that name is refused before anything is written: a rename would replace the node itself
/// (a link by a file, `/dev/full` by a regular file) instead of writing where it points. `-`
/// is standard output; callers handle it before they get here.
public final class OutputFile {
    /// The name the output is written under.
    public let path: String
    private let replacement: DurableFile.Replacement

    /// Checks that `path` may be written (see the type's notes) and opens its temporary file.
    public init(path: String) throws {
        try Self.check(path)
        self.path = path
        replacement = try DurableFile.Replacement(path: path, createFolder: false)
    }

    /// Bytes written so far.
    public var length: Int { replacement.length }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: UnsafeRawBufferPointer) throws { try replacement.append(bytes) }

    /// Appends `bytes` to the temporary file.
    public func write(_ bytes: [UInt8]) throws { try bytes.withUnsafeBytes { try replacement.append($0) } }

    /// Makes the file durable and puts it in place of `path`, checking once more that nothing
    /// but a regular file took the name meanwhile.
    public func commit() throws {
        try Self.check(path)
        try replacement.commit()
    }

    /// Writes `bytes` as the whole file at `path`.
    public static func write(_ bytes: [UInt8], to path: String) throws {
        let file = try OutputFile(path: path)
        try file.write(bytes)
        try file.commit()
    }

    /// Appends `bytes` to the regular file at `path`, creating it (or emptying it first, with
    /// `truncating`); the name must hold a regular file or nothing, never a link (O_NOFOLLOW),
    /// a FIFO or a device (checked on the opened descriptor). For outputs written in many
    /// pieces across many files, where one open file each would pass the process's limit.
    public static func append(_ bytes: UnsafeRawBufferPointer, to path: String, truncating: Bool) throws {
        try check(path)
        let file = try PlatformFile(path: path, mode: truncating ? .createTruncateNoFollow : .appendNoFollow)
        guard try file.isRegular() else {
            throw SystemError(.unsuitableFile, "is not a regular file; an output is written to a regular file only", path: path)
        }
        try file.writeAll(bytes, at: try file.size())
    }

    /// Refuses a name that is empty, whose folder is missing, or that holds anything but a regular file.
    public static func check(_ path: String) throws {
        guard !path.isEmpty else { throw SystemError(.unsuitableFile, "an empty file name", path: path) }
        switch PlatformPath.kind(path) {
        case .missing:
            let folder = PlatformPath.parent(of: path)
            switch PlatformPath.kind(folder) {
            case .directory: return
            case .missing: throw SystemError(.unsuitableFile, "the folder \(folder) does not exist", path: path)
            default: throw SystemError(.unsuitableFile, "\(folder) is not a folder", path: path)
            }
        case .regular: return
        case let other:
            throw SystemError(.unsuitableFile, "is \(other.description); an output is written to a regular file only (or - for standard output)", path: path)
        }
    }
}
