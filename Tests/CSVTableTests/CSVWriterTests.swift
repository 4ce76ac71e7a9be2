import Foundation
import Testing
import CSVTable

/// RFC 4180 records, derived by hand from the RFC's rules (fields with quotes, commas, CR or LF
/// are quoted, quotes doubled, CRLF between records), and read back by Python's csv module.
@Suite struct CSVWriterTests {
    private func text(_ header: [String], _ rows: [[String?]]) throws -> String {
        var writer = try CSVWriter(header: header)
        for row in rows { try writer.append(row: row) }
        return String(decoding: writer.takeBytes(), as: UTF8.self)
    }

    @Test("plain fields are written as they are, records end with CRLF")
    func plain() throws {
        #expect(try text(["id", "plan"], [["ev-1", "pro"], ["ev-2", "free"]]) == "id,plan\r\nev-1,pro\r\nev-2,free\r\n")
    }

    @Test("quotes are doubled inside quotes; commas, CR and LF are quoted")
    func quoting() throws {
        #expect(try text(["a"], [["say \"hi\""]]) == "a\r\n\"say \"\"hi\"\"\"\r\n")
        #expect(try text(["a", "b"], [["x,y", "1\n2"]]) == "a,b\r\n\"x,y\",\"1\n2\"\r\n")
        #expect(try text(["a"], [["cr\r"]]) == "a\r\n\"cr\r\"\r\n")
        #expect(try text(["a"], [["é日本 ok"]]) == "a\r\né日本 ok\r\n")
        #expect(try text(["a,b"], []) == "\"a,b\"\r\n")
    }

    @Test("a nil field is empty and unquoted, an empty string is \"\"")
    func nullAndEmpty() throws {
        #expect(try text(["a", "b", "c"], [[nil, "", "x"]]) == "a,b,c\r\n,\"\",x\r\n")
    }

    @Test("a record of the wrong width is refused and nothing of it is written; an empty header too")
    func widths() throws {
        var writer = try CSVWriter(header: ["a", "b"])
        #expect(throws: CSVError(record: 1, message: "the record has 1 fields; the header has 2")) { try writer.append(row: ["x"]) }
        try writer.append(row: ["x", "y"])
        #expect(String(decoding: writer.takeBytes(), as: UTF8.self) == "a,b\r\nx,y\r\n")
        #expect(writer.recordCount == 2)
        #expect(writer.pendingByteCount == 0)
        #expect(throws: CSVError.self) { _ = try CSVWriter(header: []) }
    }

    @Test("takeBytes hands over each stretch once, in order")
    func draining() throws {
        var writer = try CSVWriter(header: ["a"])
        let first = writer.takeBytes()
        try writer.append(row: ["1"])
        let second = writer.takeBytes()
        #expect(String(decoding: first + second, as: UTF8.self) == "a\r\n1\r\n")
        #expect(writer.takeBytes().isEmpty)
    }

    @Test("Python's csv module reads back every field of seeded random records exactly",
          .enabled(if: CSVWriterTests.hasPython, "python3 is not installed"))
    func pythonReadsBack() throws {
        let seed: UInt64 = 0xC5F
        var random = SplitMix64(seed: seed)
        let alphabet: [Character] = ["a", "Z", " ", ",", "\"", "\r", "\n", "é", "日", "🧾", "\r\n", ";", "'"]
        var rows: [[String]] = []
        for _ in 0..<200 {
            rows.append((0..<4).map { _ in String((0..<Int(random.next() % 8)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }) })
        }
        var writer = try CSVWriter(header: ["a", "b", "c", "d"])
        for row in rows { try writer.append(row: row) }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("csv-\(UUID().uuidString).csv")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(writer.takeBytes()).write(to: file)
        let script = """
        import csv, json, sys
        with open(sys.argv[1], newline="", encoding="utf-8") as f:
            print(json.dumps(list(csv.reader(f))))
        """
        let output = try Self.python(script, file.path)
        let read = try JSONDecoder().decode([[String]].self, from: output)
        #expect(read.first == ["a", "b", "c", "d"], "seed \(seed)")
        #expect(Array(read.dropFirst()).map { $0.map { Array($0.utf8) } } == rows.map { $0.map { Array($0.utf8) } }, "seed \(seed)")
    }

    static let hasPython = (try? python("pass")) != nil

    static func python(_ script: String, _ args: String...) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + args
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CSVError(record: -1, message: "python3 exited \(process.terminationStatus)") }
        return data
    }
}

/// A small seeded random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
