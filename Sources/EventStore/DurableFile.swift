/// Small files replaced atomically and durably (write a temporary file, fsync, rename, fsync the
/// folder): a reader sees the old content or the new, never a mix. Used for projection checkpoints.
public enum DurableFile {
    /// Replaces the file at `path` with `bytes`, creating its folder if needed.
    public static func replace(path: String, with bytes: [UInt8]) throws {
        let parent = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        if !parent.isEmpty { try PlatformDirectory.create(parent) }
        try PlatformDirectory.replaceFile(path, with: bytes)
    }

    /// The file's bytes, or nil if there is no file.
    public static func read(path: String) throws -> [UInt8]? { try PlatformDirectory.readFile(path) }
}
