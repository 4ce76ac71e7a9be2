// Release-mode figure for the Parquet writer: an events-like table of N rows (default 10 M),
// written to a counting sink (or a file with --out), timed; --generate-only times building the
// rows alone, so the writer's share is the difference.
//
//   swift run -c release parquet-bench [--rows N] [--out FILE] [--generate-only] [--csv]
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Parquet
import CSVTable

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Counts bytes, or appends them to a C stream.
struct BenchSink: ParquetSink {
    var file: UnsafeMutablePointer<FILE>?
    var count = 0
    mutating func write(_ bytes: UnsafeRawBufferPointer) throws {
        count += bytes.count
        if let file, let base = bytes.baseAddress, fwrite(base, 1, bytes.count, file) != bytes.count {
            throw BenchError(message: "fwrite failed")
        }
    }
}

struct BenchError: Error { var message: String }

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

var rows = 10_000_000
var outPath: String?
var generateOnly = false
var csv = false
var args = CommandLine.arguments.dropFirst().makeIterator()
while let a = args.next() {
    switch a {
    case "--rows": rows = Int(args.next() ?? "") ?? rows
    case "--out": outPath = args.next()
    case "--generate-only": generateOnly = true
    case "--csv": csv = true
    default: print("unknown argument \(a)"); exit(2)
    }
}

let schema = try ParquetSchema([
    ParquetColumn("position", .int64),
    ParquetColumn("id", .string),
    ParquetColumn("user", .string),
    ParquetColumn("type", .string, dictionary: true),
    ParquetColumn("time", .timestampMicros),
    ParquetColumn("amount", .decimal18x6, nullable: true),
    ParquetColumn("currency", .string, nullable: true, dictionary: true),
    ParquetColumn("trial", .boolean),
])
let types = ["purchase", "renewal", "cancellation", "billing_issue", "refund", "expiration", "paywall_view", "purchase_start"]
let currencies = ["USD", "EUR", "GBP", "JPY", "BRL"]
let users = (0..<200_000).map { "user-\($0)" }

var sink = BenchSink()
if let outPath {
    guard let f = fopen(outPath, "wb") else { print("cannot open \(outPath)"); exit(1) }
    sink.file = f
}
var writer = try ParquetWriter(schema: schema, sink: sink)
var csvWriter = try CSVWriter(header: schema.columns.map(\.name))
var csvBytes = 0
var random = SplitMix64(state: 42)
var row: [ParquetValue] = []
row.reserveCapacity(schema.columns.count)
var fields: [String?] = []
let start = now()
var time: Int64 = 1_767_225_600_000_000
for n in 0..<rows {
    let r = random.next()
    time += Int64(r % 5_000_000)
    row.removeAll(keepingCapacity: true)
    row.append(.int64(Int64(n + 1)))
    row.append(.string("ev-" + String(n)))
    row.append(.string(users[Int((r >> 8) % UInt64(users.count))]))
    row.append(.string(types[Int((r >> 32) % 8)]))
    row.append(.int64(time))
    let paid = (r >> 40) % 5 < 3
    row.append(paid ? .int64(Int64((r >> 44) % 100_000) * 10_000) : .null)
    row.append(paid ? .string(currencies[Int((r >> 50) % 5)]) : .null)
    row.append(.bool((r >> 60) & 1 == 1))
    if generateOnly { continue }
    if csv {
        fields.removeAll(keepingCapacity: true)
        for v in row {
            switch v {
            case .null: fields.append(nil)
            case .string(let s): fields.append(s)
            case .int64(let i): fields.append(String(i))
            case .bool(let b): fields.append(b ? "true" : "false")
            }
        }
        try csvWriter.append(row: fields)
        if csvWriter.pendingByteCount > 1 << 20 { csvBytes += csvWriter.takeBytes().count }
    } else {
        try writer.append(row: row)
    }
}
if !generateOnly && !csv {
    try writer.finish(keyValueMetadata: [ParquetKeyValue("ledger.head.position", String(rows))])
}
csvBytes += csvWriter.takeBytes().count
let seconds = now() - start
if let f = writer.sink.file { fclose(f) }
let what = generateOnly ? "generated only" : csv ? "CSV, \(csvBytes) bytes" : "Parquet, \(writer.bytesWritten) bytes, \(writer.rowGroupCount) row groups"
let hundredths = (seconds * 100).rounded() / 100
print("\(rows) rows, \(what): \(hundredths) s (\(Int(Double(rows) / seconds)) rows/s)")
