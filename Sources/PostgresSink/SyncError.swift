/// A sync that could not run or was refused: one line saying why. The database is left as it
/// was (nothing commits unless the whole transaction does).
public struct SyncError: Error, CustomStringConvertible, Sendable {
    public var message: String
    /// The command line was wrong (exit 2) rather than the database or the log (exit 1).
    public var isUsage = false
    public var description: String { message }

    public init(_ message: String, usage: Bool = false) {
        self.message = message
        isUsage = usage
    }
}
