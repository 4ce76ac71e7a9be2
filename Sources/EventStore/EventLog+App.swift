import Platform
extension EventLog {
    /// The file, in the log's folder, that names the app whose events the log holds (written by
    /// the first import; its text is the caller's, e.g. the app's name and catalog).
    public static let appFileName = "app"

    /// The app declaration of the log in `directory`, or nil if it has none.
    public static func declaredApp(directory: String) throws -> [UInt8]? {
        try DurableFile.read(path: directory + "/" + appFileName)
    }

    /// Writes the app declaration, once: a log that already declares one keeps it (the caller
    /// compares it first). Written durably, under the writer lock.
    public func declareApp(_ declaration: [UInt8]) throws {
        guard access == .write else { throw EventStoreError(.invalidArgument, "this handle is read-only", path: directory) }
        try withWriterLock { () throws in
            guard try Self.declaredApp(directory: directory) == nil else { return }
            try DurableFile.replace(path: directory + "/" + Self.appFileName, with: declaration)
        }
    }
}
