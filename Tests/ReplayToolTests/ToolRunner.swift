import Foundation
import Testing

/// Runs the built replay-tool binary (it sits next to the test bundle) and captures its output.
struct ToolRun {
    var status: Int32
    var out: String
    var err: String
    /// The process was ended by a signal (a trap, a crash), not by exit: `status` is the signal.
    var signaled = false
}

enum Tool {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }
        return url.path
    }()

    static let binary: String = {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("replay-tool").path) && dir.path != "/" {
            dir.deleteLastPathComponent()
        }
        return dir.appendingPathComponent("replay-tool").path
    }()

    /// Runs the tool with `args`; `via` runs it under another program instead (`["/usr/bin/time", "-o", F]`);
    /// `environment` adds variables (test hooks such as `REPLAY_TOOL_IMPORT_BATCH`).
    @discardableResult
    /// `cwd` runs it in another folder (the package root by default); `stdout` sends its standard
    /// output to that file or node instead of a pipe (`out` is then empty).
    static func run(_ args: [String], now: String? = "2026-02-06T12:00:00Z", stdin: String? = nil, via: [String] = [],
                    environment: [String: String] = [:], cwd: String? = nil, stdout: String? = nil) -> ToolRun {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: via.first ?? binary)
        p.arguments = via.isEmpty ? args : Array(via.dropFirst()) + [binary] + args
        p.currentDirectoryURL = URL(fileURLWithPath: cwd ?? packageRoot)
        var env = ProcessInfo.processInfo.environment
        if let now { env["REPLAY_TOOL_NOW"] = now } else { env.removeValue(forKey: "REPLAY_TOOL_NOW") }
        env.merge(environment) { $1 }
        p.environment = env
        let out = Pipe(), err = Pipe(), input = Pipe()
        let sink = stdout.flatMap { FileHandle(forWritingAtPath: $0) }
        p.standardOutput = sink ?? out
        p.standardError = err
        p.standardInput = input
        try! p.run()
        if sink != nil { try? out.fileHandleForWriting.close() }
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try? input.fileHandleForWriting.close()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return ToolRun(status: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self),
                       signaled: p.terminationReason == .uncaughtSignal)
    }

    /// Runs `script` under bash with `ulimit -f` set to `kib` (1,024-byte blocks) and SIGXFSZ at its
    /// default, as a shell has it (the test runner's children inherit it ignored), `$0`… being
    /// `arguments`, in the package root; returns how it ended and its standard error.
    static func runUnderFileSizeLimit(kib: Int, _ script: String, _ arguments: [String]) throws -> (reason: Process.TerminationReason, status: Int32, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["--default-signal=XFSZ", "/bin/bash", "-c", "ulimit -f \(kib); " + script] + arguments
        p.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        return (p.terminationReason, p.terminationStatus, message)
    }

    /// Runs the tool as `run` does and expects exit `status`, naming the command and its stderr when it is not.
    @discardableResult
    static func expecting(_ status: Int32, _ args: [String], now: String?, sourceLocation: SourceLocation = #_sourceLocation) -> ToolRun {
        let r = run(args, now: now)
        #expect(r.status == status, "replay-tool \(args.joined(separator: " ")): exit \(r.status): \(r.err)", sourceLocation: sourceLocation)
        return r
    }

    /// A generated population (`generate --users --seed`) imported whole into `folder/single` and,
    /// by Kafka's partitioner, into `folder/p0`…: the logs the partition tests compare.
    static func partitionedPopulation(in folder: String, users: Int, seed: Int, partitions: Int = 3, now: String?,
                                      sourceLocation: SourceLocation = #_sourceLocation) -> (single: String, parts: [String]) {
        let file = folder + "/all.jsonl"
        expecting(0, ["generate", "--users", "\(users)", "--seed", "\(seed)", "--out", file], now: now, sourceLocation: sourceLocation)
        expecting(0, ["import", "--log", folder + "/single", file], now: now, sourceLocation: sourceLocation)
        let parts = (0..<partitions).map { p -> String in
            expecting(0, ["import", "--log", folder + "/p\(p)", "--partition", "\(p)/\(partitions)", file], now: now, sourceLocation: sourceLocation)
            return folder + "/p\(p)"
        }
        return (folder + "/single", parts)
    }

    /// A JSON object printed by the tool (empty when it is not one).
    static func object(_ s: String) -> [String: Any] { (json(s) as? [String: Any]) ?? [:] }

    static func json(_ s: String) -> Any { try! JSONSerialization.jsonObject(with: Data(s.utf8), options: [.fragmentsAllowed]) }
}
