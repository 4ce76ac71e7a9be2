/// A failure the command line reports in one line and maps to an exit status.
struct ToolError: Error, CustomStringConvertible {
    enum Kind {
        /// Exit 2: the command line itself is wrong.
        case usage
        /// Exit 1: the input or the log had something wrong.
        case input
    }
    var kind: Kind
    var message: String
    /// Already said on stderr (a failed standard output, said once): exit without a second line.
    var silent = false
    var description: String { message }

    static func usage(_ m: String) -> ToolError { ToolError(kind: .usage, message: m) }
    static func input(_ m: String) -> ToolError { ToolError(kind: .input, message: m) }

    var exitCode: Int32 { kind == .usage ? 2 : 1 }
}
