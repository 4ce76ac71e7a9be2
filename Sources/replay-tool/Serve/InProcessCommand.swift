import Synchronization

/// Runs one of the tool's own commands inside the server, its output kept instead of printed:
/// `GET /reports/counts` answers exactly what `counts --format json` prints, because it is that
/// command. One at a time (the console is one).
enum InProcessCommand {
    private static let lock = Mutex(())

    /// The command's exit status, standard output and standard error.
    static func run(_ args: [String]) -> (status: Int32, out: [UInt8], err: String) {
        lock.withLock { _ in
            Console.captured = ([], [])
            let status = runTool(args)
            Console.flush()
            let kept = Console.captured ?? ([], [])
            Console.captured = nil
            Console.outputFailure = nil
            Console.failureReported = false
            return (status, kept.out, String(decoding: kept.err, as: UTF8.self))
        }
    }
}
