/// A file read and written at offsets, for files derived from the log that live beside it
/// (such as the Merkle tree's stored hashes): `pread` and `pwrite` through the one place that talks
/// to the operating system, every failure a `SystemError` with the path, offset and errno.
///
/// Nothing here decides what the bytes mean; the owner of the file checks them before use.
public final class RandomAccessFile {
    let file: PlatformFile
    /// Where the file is.
    public var path: String { file.path }

    /// Opens the file at `path`: for reading, or (`create`) for reading and writing, making it if
    /// it is missing (its folder must exist).
    public init(path: String, create: Bool) throws {
        file = try PlatformFile(path: path, mode: create ? .createReadWrite : .readOnly)
    }

    /// The file's current size in bytes.
    public func size() throws -> Int { try file.size() }

    /// Whether the open file is a regular file.
    public func isRegular() throws -> Bool { try file.isRegular() }

    /// Reads `count` bytes at `offset`; fewer only where the file ends.
    public func read(at offset: Int, count: Int) throws -> [UInt8] { try file.readBytes(at: offset, count: count) }

    /// Fills `buffer` from `offset`; returns how many bytes were read (fewer only where the file ends).
    public func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws -> Int {
        try file.read(into: buffer, at: offset)
    }

    /// Writes all of `bytes` at `offset`.
    public func write(_ bytes: [UInt8], at offset: Int) throws {
        try bytes.withUnsafeBytes { try file.writeAll($0, at: offset) }
    }

    /// Flushes the file's data to stable storage.
    public func sync() throws { try file.sync() }

    /// Cuts (or extends with zeros) the file to `length` bytes.
    public func truncate(to length: Int) throws { try file.truncate(to: length) }

    /// Takes the advisory exclusive lock on this file, waiting for another holder.
    public func lock() throws { try file.lockExclusive(wait: true) }

    /// Releases the advisory lock.
    public func unlock() { file.unlock() }
}
