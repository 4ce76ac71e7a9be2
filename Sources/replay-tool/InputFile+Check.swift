import Platform
import Reports

extension InputFile {
    /// Refuses a path that is missing, a folder or unreadable, before anything is imported.
    static func check(_ path: String) throws {
        if path == "-" { return }
        guard PlatformDirectory.exists(path), PlatformDirectory.isReadable(path) else {
            throw ToolError.input("\(path): cannot read (no such file or not readable)")
        }
        guard !PlatformDirectory.isDirectory(path) else { throw ToolError.input("\(path): a folder, not a file of JSON Lines") }
    }
}
