import Foundation
import SubscriptionDomain

/// The output formats of query commands.
enum OutputFormat: String {
    case table, json, csv
}

/// A JSON value with ordered keys, written compactly on one line.
indirect enum JSON {
    case string(String), int(Int), double(Double), bool(Bool), null
    case array([JSON])
    case object([(String, JSON)])

    static func time(_ t: Timestamp?) -> JSON { t.map { .string($0.description) } ?? .null }
    static func text(_ s: String?) -> JSON { s.map { .string($0) } ?? .null }

    var rendered: String {
        var out: [UInt8] = []
        render(into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func render(into out: inout [UInt8]) {
        switch self {
        case .string(let s): EventCodec.appendString(s, to: &out)
        case .int(let n): out.append(contentsOf: String(n).utf8)
        case .double(let d): out.append(contentsOf: String(format: "%.4f", d).utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .null: out.append(contentsOf: "null".utf8)
        case .array(let items):
            out.append(0x5B)
            for (i, v) in items.enumerated() { if i > 0 { out.append(0x2C) }; v.render(into: &out) }
            out.append(0x5D)
        case .object(let pairs):
            out.append(0x7B)
            for (i, (k, v)) in pairs.enumerated() {
                if i > 0 { out.append(0x2C) }
                EventCodec.appendString(k, to: &out)
                out.append(0x3A)
                v.render(into: &out)
            }
            out.append(0x7D)
        }
    }
}

/// Rows with named columns, printed as an aligned table or CSV.
struct TextTable {
    var headers: [String]
    var rows: [[String]] = []

    var aligned: String {
        let widths = headers.indices.map { c in max(headers[c].count, rows.map { $0[c].count }.max() ?? 0) }
        func line(_ cells: [String]) -> String {
            zip(cells, widths).enumerated().map { i, p in i == cells.count - 1 ? p.0 : p.0.padding(p.1) }.joined(separator: "  ")
        }
        return ([line(headers)] + rows.map(line)).joined(separator: "\n") + "\n"
    }

    var csv: String {
        func field(_ s: String) -> String {
            s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
        }
        return ([headers] + rows).map { $0.map(field).joined(separator: ",") }.joined(separator: "\n") + "\n"
    }

    func render(_ format: OutputFormat) -> String { format == .csv ? csv : aligned }
}

/// Standard output and error, written through one buffered path.
enum Console {
    nonisolated(unsafe) static var buffer: [UInt8] = []

    static func out(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        if buffer.count > 1 << 16 { flush() }
    }

    static func flush() {
        guard !buffer.isEmpty else { return }
        writeAll(1, buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    static func err(_ s: String) {
        flush()
        writeAll(2, Array((s.hasSuffix("\n") ? s : s + "\n").utf8))
    }

    /// Writes all bytes to a file descriptor, looping over short writes and EINTR.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = write(fd, b.baseAddress! + done, b.count - done)
                if n < 0 { if errno == EINTR { continue }; return }
                done += n
            }
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
