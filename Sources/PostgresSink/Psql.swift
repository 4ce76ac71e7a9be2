import Foundation
import Platform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// PostgreSQL's own client, `psql`, run as a subprocess: the one place this module starts a
/// process. A script goes in on stdin (SQL, and `COPY … FROM STDIN` data inline, as `pg_dump`
/// writes it), with `-X` (no ~/.psqlrc), `-v ON_ERROR_STOP=1` (the first error ends the run
/// with exit status 3, so nothing after it runs and an open transaction is rolled back when the
/// connection closes), `-w` (never prompt for a password: it comes from the string, `PGPASSWORD`
/// or `~/.pgpass`), `-q -A -t` (bare output). The connection string is passed as psql's
/// `--dbname`, so everything libpq accepts works, `PG*` environment variables included.
public struct Psql: Sendable {
    /// The psql binary: `REPLAY_TOOL_PSQL` if set, else the first `psql` on `PATH`.
    public var executable: String
    /// A libpq connection string (`host=/tmp dbname=app`) or URI; empty means libpq's defaults and `PG*` variables.
    public var conninfo: String

    public init(conninfo: String, executable: String? = nil) throws {
        self.conninfo = conninfo
        guard let exe = executable ?? Self.find() else {
            throw SyncError("psql not found (install the postgresql-client package, or set REPLAY_TOOL_PSQL to its path)")
        }
        self.executable = exe
    }

    static func find() -> String? {
        let env = ProcessInfo.processInfo.environment
        if let fixed = env["REPLAY_TOOL_PSQL"], !fixed.isEmpty { return fixed }
        for dir in (env["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = String(dir) + "/psql"
            if PlatformPath.cannotExecute(path) == nil { return path }
        }
        return nil
    }

    /// What a run printed.
    public struct Output: Sendable {
        public var stdout: String
        public var stderr: String
    }

    /// Runs psql with the script that `write` produces, streamed to its stdin in pieces (a first
    /// sync of a million users is a few hundred megabytes of COPY data, never held whole).
    /// Throws `SyncError` with psql's first error line if it fails.
    public func run(_ produce: (_ send: (String) throws -> Void) throws -> Void) throws -> Output {
        PlatformProcess.ignoreBrokenPipeSignal()   // psql may stop reading at an error: a write then fails with EPIPE, not a signal
        let p = Process()
        p.executableURL = URL(fileURLWithPath: executable)
        p.arguments = ["-X", "-w", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1"] + (conninfo.isEmpty ? [] : ["--dbname", conninfo])
        let input = Pipe(), out = Pipe(), err = Pipe()
        p.standardInput = input
        p.standardOutput = out
        p.standardError = err
        if let why = PlatformPath.cannotExecute(executable) {
            throw SyncError("cannot run \(executable): \(why) (REPLAY_TOOL_PSQL or PATH names the psql to run)")
        }
        do { try p.run() } catch { throw SyncError("cannot run \(executable): \((error as NSError).localizedDescription)") }
        // Both outputs are drained while the script is written, so neither side blocks on a full pipe.
        let collected = OutputCollector()
        let group = DispatchGroup()
        for (handle, isErr) in [(out.fileHandleForReading, false), (err.fileHandleForReading, true)] {
            DispatchQueue.global().async(group: group) {
                let data = handle.readDataToEndOfFile()
                collected.set(String(decoding: data, as: UTF8.self), err: isErr)
            }
        }
        let fd = input.fileHandleForWriting.fileDescriptor
        var writeFailed = false
        var buffer: [UInt8] = []
        func flush() throws {
            guard !writeFailed else { return }
            // A failed write means psql has gone (an error stopped it): its stderr says why.
            do { try buffer.withUnsafeBytes { try StandardStream.writeAll(fd, $0) } } catch { writeFailed = true }
            buffer.removeAll(keepingCapacity: true)
        }
        var thrown: Error?
        do {
            try produce { text in
                buffer.append(contentsOf: text.utf8)
                if buffer.count >= 1 << 16 { try flush() }
            }
            try flush()
        } catch { thrown = error }
        try? input.fileHandleForWriting.close()
        p.waitUntilExit()
        group.wait()
        if let thrown { throw thrown }
        let output = collected.output
        guard p.terminationReason == .exit, p.terminationStatus == 0 else {
            let reason = Self.firstError(output.stderr) ?? "psql ended with status \(p.terminationStatus)"
            // A table or column of the profile's schema missing: the database was not set up for it.
            let hint = reason.contains("ERROR:") && reason.contains("does not exist")
                ? " (is this database set up for this profile? `replay-tool sync --init` applies its schema; MirrorMate and HowRU each need a database of their own)" : ""
            throw SyncError(reason + hint)
        }
        return output
    }

    /// Runs one script given whole.
    public func run(script: String) throws -> Output { try run { send in try send(script) } }

    /// The line of psql's stderr that says what went wrong (`psql: error: …` or `ERROR: …`).
    static func firstError(_ stderr: String) -> String? {
        let lines = stderr.split(separator: "\n").map { String($0) }
        let picked = lines.first { $0.contains("ERROR:") || $0.contains("error:") || $0.contains("FATAL:") } ?? lines.first
        return picked.map { $0.hasPrefix("psql:") ? String($0.drop { $0 != " " }.dropFirst()) : $0 }
    }
}

/// psql's stdout and stderr, filled in by the threads that drain them.
private final class OutputCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var out = "", err = ""
    func set(_ text: String, err isErr: Bool) { lock.withLock { if isErr { err = text } else { out = text } } }
    var output: Psql.Output { lock.withLock { Psql.Output(stdout: out, stderr: err) } }
}
