import Foundation
import Testing

/// python3 with pyarrow and duckdb, for the table export tests: runs a script and returns what it
/// prints; the tests skip with a printed message where either is missing.
enum TablePython {
    static let available: Bool = {
        let ok = (try? run("import pyarrow, duckdb", [])) != nil
        if !ok { print("TableExport tests skipped: python3 with pyarrow and duckdb is not installed (pip install duckdb pyarrow)") }
        return ok
    }()

    struct Failure: Error, CustomStringConvertible { var description: String }

    /// Runs `python3 -c script args…`; a non-zero exit throws with its stderr.
    static func run(_ script: String, _ args: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + args
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "python3 exited \(process.terminationStatus): \(String(decoding: e, as: UTF8.self))")
        }
        return String(decoding: o, as: UTF8.self)
    }

    /// Runs a script that prints a JSON list of mismatches, and returns them (empty: all agree).
    static func mismatches(_ script: String, _ args: [String]) throws -> [String] {
        let text = try run(script, args)
        return (Tool.json(text) as? [String]) ?? ["not a JSON list of strings: \(text)"]
    }
}
