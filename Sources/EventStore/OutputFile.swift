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
            throw EventStoreError(.unsuitableFile, "is not a regular file; an output is written to a regular file only", path: path)
        }
        try file.writeAll(bytes, at: try file.size())
    }

    /// Refuses a name that is empty, whose folder is missing, or that holds anything but a regular file.
    public static func check(_ path: String) throws {
        guard !path.isEmpty else { throw EventStoreError(.unsuitableFile, "an empty file name", path: path) }
        switch PlatformPath.kind(path) {
        case .missing:
            let folder = PlatformPath.parent(of: path)
            switch PlatformPath.kind(folder) {
            case .directory: return
            case .missing: throw EventStoreError(.unsuitableFile, "the folder \(folder) does not exist", path: path)
            default: throw EventStoreError(.unsuitableFile, "\(folder) is not a folder", path: path)
            }
        case .regular: return
        case let other:
            throw EventStoreError(.unsuitableFile, "is \(other.description); an output is written to a regular file only (or - for standard output)", path: path)
        }
    }
}

/// Path operations done here rather than with Foundation's path helpers (which trap on some strings).
public enum PlatformPath {
    /// What a name is, without following a symbolic link.
    public enum Kind: Equatable, Sendable, CustomStringConvertible {
        case missing, regular, directory, symbolicLink, fifo, characterDevice, blockDevice, socket, other

        public var description: String {
            switch self {
            case .missing: "missing"
            case .regular: "a regular file"
            case .directory: "a folder"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO (named pipe)"
            case .characterDevice: "a character device"
            case .blockDevice: "a block device"
            case .socket: "a socket"
            case .other: "not a regular file"
            }
        }
    }

    /// The kind of the node at `path` (lstat: a link is a link).
    public static func kind(_ path: String) -> Kind {
        var st = stat()
        guard lstat(path, &st) == 0 else { return .missing }
        switch st.st_mode & S_IFMT {
        case S_IFREG: return .regular
        case S_IFDIR: return .directory
        case S_IFLNK: return .symbolicLink
        case S_IFIFO: return .fifo
        case S_IFCHR: return .characterDevice
        case S_IFBLK: return .blockDevice
        case S_IFSOCK: return .socket
        default: return .other
        }
    }

    /// The folder holding `path`: `.` for a bare name, `/` for a name in the root; trailing
    /// slashes are not part of the name. Never traps, whatever the string.
    public static func parent(of path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1 && bytes.last == 0x2F { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: 0x2F) else { return "." }
        var end = slash
        while end > 0 && bytes[end - 1] == 0x2F { end -= 1 }
        return end == 0 ? "/" : String(decoding: bytes[..<end], as: UTF8.self)
    }

    /// `folder/name`, without doubling a slash.
    public static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
