import Foundation
import Testing
import TestKit

/// Errors the log itself raises (EventStoreError: a folder that is not a log, damage) quote paths
/// and file names, which may hold control characters: printed, each is still one line.
@Suite struct LogErrorLines {
    @Test func aLogErrorQuotingAPathWithANewlineIsOneLine() throws {
        let s = Scratch()
        // Not a log folder: the error names the folder and what it holds.
        let foreign = s.path + "/odd\nfolder"
        try FileManager.default.createDirectory(atPath: foreign, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: foreign + "/notes\nfor me.txt", contents: Data("mine".utf8))
        let refused = Tool.run(["import", "--log", foreign, "events/tomo.jsonl"])
        #expect(refused.status == 2)
        #expect(refused.err == "replay-tool import: \(s.path)/odd\\nfolder: not a log folder: it holds notes\\nfor me.txt and no segments/ (give an empty or new folder)\n",
                "\(refused.err)")
        #expect(!FileManager.default.fileExists(atPath: foreign + "/segments"))
        // Damage: the error names the segment file, in a log folder whose name holds a newline.
        let log = s.path + "/a\nlog"
        #expect(Tool.run(["import", "--log", log, "events/handz.jsonl"]).status == 0)
        let segments = try FileManager.default.contentsOfDirectory(atPath: log + "/segments").filter { $0.hasSuffix(".seg") }
        let segment = log + "/segments/" + segments[0]
        var bytes = [UInt8](FileManager.default.contents(atPath: segment)!)
        bytes[200] ^= 0x5A
        _ = FileManager.default.createFile(atPath: segment, contents: Data(bytes))
        try? FileManager.default.removeItem(atPath: log + "/indexes")   // so the import scans the segments again
        let damaged = Tool.run(["import", "--log", log, "events/tomo.jsonl"])
        #expect(damaged.status == 1)
        #expect(damaged.err.hasPrefix("replay-tool import: \(s.path)/a\\nlog/segments/\(segments[0])@") && damaged.err.split(separator: "\n").count == 1,
                "\(damaged.err)")
    }
}
