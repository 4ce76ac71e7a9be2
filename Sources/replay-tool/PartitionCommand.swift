import Foundation
import EventStore
import Projections
import SubscriptionDomain
import EventCodec
import Platform
import Ingest
import Reports

/// `partition --of N [--out DIR] FILE…`: splits JSON Lines events into N files by Kafka's default
/// partitioner on the user id, so that file p holds exactly what `import --partition p/N` of the
/// same input appends (and what partition p of a topic keyed by user id holds).
enum PartitionCommand {
    /// A line longer than this is rejected unread (as `import` does: twice the log's record limit).
    static let maxLineSize = 2 << 20

    static let command = CommandSpec(
        name: "partition", summary: "split events into N files by Kafka's default partitioner on the user id (file p = import --partition p/N)",
        positionals: "FILE…",
        options: [Common.log, Common.profile, Common.tableOrJSON,
                  OptionSpec(name: "--of", value: "N", help: "how many partitions (1 to \(StreamPartition.maxCount))"),
                  OptionSpec(name: "--out", value: "DIR", help: "where to write partition-P.jsonl (default: the current folder)")],
        details: """
            Each line goes, verbatim, to partition (murmur2(utf8(user)) & 0x7fffffff) % N of DIR/partition-P.jsonl (P zero-padded;
            the files are replaced). A line that is not a valid event is reported as file:line: reason and kept in
            DIR/rejected/; exit 1 if any. Store payloads are partitioned by import --partition p/N --from …, which resolves their users.
            """
    ) { a in
        guard let count = try Common.number(a, "--of", in: 1...UInt64(StreamPartition.maxCount)) else {
            throw ToolError.usage("partition needs --of N (1 to \(StreamPartition.maxCount))")
        }
        guard !a.positionals.isEmpty else { throw ToolError.usage("partition needs at least one FILE (or - for stdin)") }
        let format = try Common.format(a, allowed: [.table, .json])
        for path in a.positionals { try InputFile.check(path) }
        let out = a.value("--out") ?? "."
        try PartitionFiles.writing { try PlatformDirectory.create(out) }
        var files = try PartitionFiles(folder: out, count: Int(count))
        var kept = RejectedLinesFile(logDirectory: out)
        var rejected = 0
        for path in a.positionals {
            let input = try InputFile(path)
            rejected += try split(input, name: path == "-" ? "<stdin>" : path, into: &files, rejected: &kept)
        }
        try files.close()
        try kept.close()
        if format == .json {
            Console.out(JSON.object([
                ("partitions", .array(files.paths.indices.map { p in
                    .object([("partition", .int(p)), ("events", .int(files.events[p])), ("file", .string(files.paths[p]))]) })),
                ("rejected", .int(rejected)), ("rejectedFile", .text(kept.path)),
            ]).rendered + "\n")
        } else {
            Console.out(TextTable(headers: ["partition", "events", "file"],
                                  rows: files.paths.indices.map { ["\($0)/\(count)", "\(files.events[$0])", files.paths[$0]] }).aligned)
            Console.out("rejected \(rejected)\n")
            if let keptAt = kept.path { Console.out("rejected lines kept verbatim in \(keptAt)\n") }
        }
        return rejected == 0 ? 0 : 1
    }

    /// Splits one input; returns how many lines it rejected.
    static func split(_ input: InputFile, name: String, into files: inout PartitionFiles, rejected kept: inout RejectedLinesFile) throws -> Int {
        var rejected = 0
        var line: [UInt8] = []
        var overlong = 0
        var number = 1
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 20, alignment: 1)
        defer { buffer.deallocate() }
        func reject(_ reason: String) throws {
            try kept.reject(EventImporter.Rejection(file: name, line: number, reason: OneLine.escaped(reason, limit: EventImporter.reasonLimit)))
            rejected += 1
        }
        func lineEnds() throws {
            defer { line.removeAll(keepingCapacity: true); overlong = 0; number += 1 }
            if overlong > 0 {
                try line.withUnsafeBytes { try kept.write($0) }
                return try reject("line is \(overlong + line.count) bytes, over the limit of \(maxLineSize) bytes a line")
            }
            try line.withUnsafeBytes { whole in
                let body = whole.last == 0x0D ? UnsafeRawBufferPointer(rebasing: whole.dropLast()) : whole
                if body.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
                do {
                    let event = try EventCodec.decode(body)
                    try files.write(whole, to: KafkaPartitioner.partition(of: event.user, count: files.paths.count))
                } catch let error as EventDecodingError {
                    try kept.write(whole)
                    try reject(error.description)
                }
            }
        }
        while true {
            let n = try input.read(into: buffer)
            if n == 0 { break }
            var start = 0
            let bytes = UnsafeRawBufferPointer(rebasing: buffer[0..<n])
            while start < n {
                guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                    line.append(contentsOf: bytes[start...])
                    start = n
                    break
                }
                line.append(contentsOf: bytes[start..<newline])
                try lineEnds()
                start = newline + 1
            }
            if line.count > maxLineSize {
                // Past the limit: the line goes to the rejected file in pieces, never held whole.
                try line.withUnsafeBytes { try kept.write($0) }
                overlong += line.count
                line.removeAll(keepingCapacity: true)
            }
        }
        if !line.isEmpty || overlong > 0 { try lineEnds() }
        return rejected
    }
}

/// The N output files of `partition`, each written through its own buffer; a file is opened to
/// append a full buffer and closed again, so N may pass the limit of open files.
struct PartitionFiles {
    let paths: [String]
    private(set) var events: [Int]
    private var buffers: [[UInt8]]
    /// A partition's buffer is written out past this many bytes: about 16 MiB over all partitions.
    private let flushAt: Int

    init(folder: String, count: Int) throws {
        let width = String(count - 1).count
        paths = (0..<count).map { p in
            let digits = String(p)
            return folder + "/partition-" + String(repeating: "0", count: width - digits.count) + digits + ".jsonl"
        }
        events = Array(repeating: 0, count: count)
        buffers = Array(repeating: [], count: count)
        flushAt = max(4096, (16 << 20) / count)
        for path in paths { try Self.writing { try OutputFile.append(UnsafeRawBufferPointer(start: nil, count: 0), to: path, truncating: true) } }
    }

    /// Adds one line (without its newline) to partition `p`.
    mutating func write(_ line: UnsafeRawBufferPointer, to p: Int) throws {
        buffers[p].append(contentsOf: line)
        buffers[p].append(0x0A)
        events[p] += 1
        if buffers[p].count >= flushAt { try flush(p) }
    }

    /// Writes out every buffer.
    mutating func close() throws {
        for p in paths.indices { try flush(p) }
    }

    private mutating func flush(_ p: Int) throws {
        guard !buffers[p].isEmpty else { return }
        let path = paths[p]
        try buffers[p].withUnsafeBytes { bytes in try Self.writing { try OutputFile.append(bytes, to: path, truncating: false) } }
        buffers[p].removeAll(keepingCapacity: true)
    }

    /// Runs a write, its failure a one-line input error (exit 1).
    static func writing(_ body: () throws -> Void) throws {
        do { try body() } catch let e as any LocatedError { throw ToolError.input("cannot write: \(e.description)") }
    }
}
