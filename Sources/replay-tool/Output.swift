import Foundation
import SubscriptionDomain
import EventStore
import Platform
import Reports

/// The output formats of query commands. `jsonl` (JSON Lines: one object a line, for jq and
/// stream readers) is offered by the commands whose output is rows: a list or a series' buckets.
enum OutputFormat: String {
    case table, json, csv, jsonl
}

/// Printing JSON to standard output without building it whole.
extension JSON {
    /// Prints `items` as one JSON array and a newline, element after element, without building
    /// the whole array first (what `.array(…).rendered` would do).
    static func printArray<S: Sequence>(_ items: S, _ element: (S.Element) -> JSON) {
        var out: [UInt8] = [0x5B]
        var first = true
        for item in items {
            if !first { out.append(0x2C) }
            first = false
            element(item).render(into: &out)
            if out.count >= 1 << 16 { Console.out(bytes: out); out.removeAll(keepingCapacity: true) }
        }
        out.append(contentsOf: "]\n".utf8)
        Console.out(bytes: out)
    }

    /// Prints a row-shaped output as JSON Lines: each element of an array, or each bucket of a
    /// series object (`{"by":…,"buckets":[…]}`), as one compact object and a newline.
    func printLines() {
        let rows: [JSON]
        switch self {
        case .array(let items): rows = items
        case .object(let pairs): if case .array(let items)? = pairs.first(where: { $0.0 == "buckets" })?.1 { rows = items } else { rows = [self] }
        default: rows = [self]
        }
        JSON.printLines(rows) { $0 }
    }

    /// Prints `items` as JSON Lines, element after element, without building them all first.
    static func printLines<S: Sequence>(_ items: S, _ element: (S.Element) -> JSON) {
        var out: [UInt8] = []
        for item in items {
            element(item).render(into: &out)
            out.append(0x0A)
            if out.count >= 1 << 16 { Console.out(bytes: out); out.removeAll(keepingCapacity: true) }
        }
        Console.out(bytes: out)
    }
}

/// Rows with named columns, printed as an aligned table or CSV.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    /// Columns padded to their widest cell (in characters), two spaces apart; the last column unpadded.
    var aligned: String { collected(.table) }

    var csv: String { collected(.csv) }

    func render(_ format: OutputFormat) -> String { collected(format) }

    /// Writes the table to standard output as it goes, without building it whole first (a
    /// schedule of a million rows is over 100 MB).
    func print(_ format: OutputFormat) {
        write(format) { Console.out(bytes: $0); $0.removeAll(keepingCapacity: true) }
    }

    private func collected(_ format: OutputFormat) -> String {
        var all: [UInt8] = []
        write(format) { all.append(contentsOf: $0); $0.removeAll(keepingCapacity: true) }
        return String(decoding: all, as: UTF8.self)
    }

    /// Renders row after row into a buffer, handing it to `emit` whenever it passes 64 KiB and at the end.
    private func write(_ format: OutputFormat, emit: (inout [UInt8]) -> Void) {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        let widths = format == .csv ? [] : headers.indices.map { c in max(Self.width(headers[c]), rows.map { Self.width($0[c]) }.max() ?? 0) }
        func line(_ cells: [String]) {
            for (i, cell) in cells.enumerated() {
                if format == .csv {
                    if i > 0 { out.append(0x2C) }
                    if cell.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A }) {
                        out.append(0x22)
                        for b in cell.utf8 { out.append(b); if b == 0x22 { out.append(0x22) } }
                        out.append(0x22)
                        continue
                    }
                    out.append(contentsOf: cell.utf8)
                } else {
                    if i > 0 { out.append(0x20); out.append(0x20) }
                    out.append(contentsOf: cell.utf8)
                    if i < cells.count - 1 { out.append(contentsOf: repeatElement(0x20, count: max(0, widths[i] - Self.width(cell)))) }
                }
            }
            out.append(0x0A)
            if out.count >= 1 << 16 { emit(&out) }
        }
        line(headers)
        for row in rows { line(row) }
        emit(&out)
    }

    /// A cell's width in characters: its byte count when it is ASCII (most cells), without
    /// breaking it into grapheme clusters.
    static func width(_ s: String) -> Int {
        var high: UInt8 = 0
        for b in s.utf8 { high |= b }
        return high < 0x80 ? s.utf8.count : s.count
    }
}

/// Standard output and error, written through one buffered path. A failed write to standard
/// output (a full disk, a closed pipe) is kept and ends the command with exit 1 and one line
/// naming it; nothing is silently dropped.
enum Console {
    nonisolated(unsafe) static var buffer: [UInt8] = []
    /// The first failed write to standard output (errno), if any.
    nonisolated(unsafe) static var outputFailure: Int32?
    /// Whether that failure was already turned into the command's error line.
    nonisolated(unsafe) static var failureReported = false

    /// While a command runs inside the server (`InProcessCommand`): its standard output and
    /// error are kept here instead of written.
    nonisolated(unsafe) static var captured: (out: [UInt8], err: [UInt8])?

    static func out(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    static func out(bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
        if buffer.count > 1 << 16 { flush() }
    }

    static func flush() {
        guard !buffer.isEmpty else { return }
        if captured != nil {
            captured!.out += buffer
            buffer.removeAll(keepingCapacity: true)
            return
        }
        if outputFailure == nil, let failed = writeAll(1, buffer) { outputFailure = failed }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Flushes, then throws if any write to standard output failed so far.
    static func flushOrThrow() throws {
        flush()
        if outputFailure != nil && failureReported { throw ToolError(kind: .input, message: "", silent: true) }
        // Said once per process (a command that runs others, as demo does, fails once).
        if let failed = outputFailure, !failureReported {
            failureReported = true
            throw ToolError.input(outputFailureText(failed))
        }
    }

    static func outputFailureText(_ code: Int32) -> String {
        "cannot write to standard output: \(String(cString: strerror(code))) (errno \(code)); the output is incomplete"
    }

    static func err(_ s: String) {
        flush()
        let line = Array((s.hasSuffix("\n") ? s : s + "\n").utf8)
        if captured != nil { captured!.err += line; return }
        _ = writeAll(2, line)
    }

    /// Writes all bytes to a file descriptor, looping over short writes and EINTR; returns the
    /// errno of a failed write, nil when all went out.
    @discardableResult
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Int32? {
        do {
            try bytes.withUnsafeBytes { try StandardStream.writeAll(fd, $0) }
            return nil
        } catch let e as SystemError {
            return e.errno ?? EIO
        } catch {
            return EIO
        }
    }

    /// Whether progress lines belong on stderr (only for a person at a terminal).
    static var showsProgress: Bool { isatty(2) != 0 }

    static func progress(_ s: String) {
        if showsProgress { writeAll(2, Array(("\r" + s).utf8)) }
    }

    static func endProgress() {
        if showsProgress { writeAll(2, [0x0A]) }
    }
}
