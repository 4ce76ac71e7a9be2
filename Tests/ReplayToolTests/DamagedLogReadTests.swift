import Foundation
import Testing
import TestKit

/// What read commands do with a damaged or forged log: answer with the damage (exit 1, named),
/// never with an answer, and never by changing the log's folder.
@Suite struct DamagedLogReads {
    /// Every command that reads the log, as a person would type it.
    static let readCommands: [[String]] = [
        ["counts"], ["funnel"], ["revenue"], ["notifications"], ["state", "--user", "dora"], ["state", "--user", "carol"],
        ["history", "--user", "carol"], ["export"], ["report", "--out", "-"], ["counts", "--by", "month"],
    ]

    /// A handz log whose kept files (projection, summary, indexes) are all written.
    static func keptLog(_ s: Scratch) throws -> String {
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        for command in readCommands { #expect(Tool.run(command + ["--log", s.log]).status == 0, "\(command)") }
        return s.log
    }

    @Test func aFlippedByteIsAnsweredWithTheDamageByEveryReadCommandAndTheFolderIsLeftAsItWas() throws {
        let s = Scratch()
        let log = try Self.keptLog(s)
        var segment = try SegmentSurgery(log: log)
        try segment.flipByte(inRecord: 19)
        try segment.write()
        let before = folderContents(log)
        for command in Self.readCommands {
            let run = Tool.run(command + ["--log", log])
            #expect(run.status == 1, "\(command): \(run.out)")
            #expect(run.err.contains("(position 19): record checksum (CRC32C) mismatch"), "\(command): \(run.err)")
            #expect(run.out.isEmpty || command == ["report", "--out", "-"] && !run.out.contains("<html"), "\(command) printed an answer")
        }
        #expect(folderContents(log) == before, "a read command changed the log's folder")
        #expect(FileManager.default.fileExists(atPath: log + "/indexes/manifest"))
    }

    @Test func aDamagedIndexFileIsWorkedAroundInMemoryAndTheReadLeavesTheFolderAsItWas() throws {
        let s = Scratch()
        let log = try Self.keptLog(s)
        let answers = [["history", "--user", "carol"], ["state", "--user", "dora"]].map { Tool.run($0 + ["--log", log]).out }
        // A bit flip in the middle of the stream index's run file: a fault of a derived file.
        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: log + "/indexes").first { $0.hasPrefix("streams-") })
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: log + "/indexes/" + run)))
        bytes[bytes.count / 2] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: log + "/indexes/" + run))
        let before = folderContents(log)
        for (k, command) in [["history", "--user", "carol"], ["state", "--user", "dora"]].enumerated() {
            let r = Tool.run(command + ["--log", log])
            #expect(r.status == 0 && r.out == answers[k], "\(command): \(r.err)")
        }
        // The reader indexed the segments again in memory; the files are a writer's to replace.
        #expect(folderContents(log) == before, "a read command changed the log's folder")
        #expect(FileManager.default.fileExists(atPath: log + "/indexes/manifest"))
    }

    @Test func aForgedRecordIsNeverServedWithOrWithoutDerivedFiles() throws {
        let s = Scratch()
        let log = try Self.keptLog(s)
        let gross = Tool.run(["revenue", "--log", log, "--format", "json"]).out
        var segment = try SegmentSurgery(log: log)
        try segment.forge(position: 16, replacing: "\"9.99\"", with: "\"1.99\"")
        try segment.write()
        // The user whose record was forged: their records are read, and the forged one breaks its link.
        for command in [["state", "--user", "carol"], ["history", "--user", "carol"], ["export"]] {
            let run = Tool.run(command + ["--log", log])
            #expect(run.status == 1 && run.err.contains("hash chain broken"), "\(command): \(run.status) \(run.err)")
            #expect(!run.out.contains("\"1.99\""))
        }
        // A kept projection was checked over the records before the forgery: it may answer, never with the forged price.
        let kept = Tool.run(["revenue", "--log", log, "--format", "json"])
        #expect(kept.status == 1 || kept.out == gross, "\(kept.out)")
        // Without derived files, every report reads the records again and stops at the broken link.
        try FileManager.default.removeItem(atPath: log + "/projections")
        try FileManager.default.removeItem(atPath: log + "/indexes")
        for command in [["counts"], ["funnel"], ["revenue"], ["notifications"], ["export"], ["counts", "--by", "month"]] {
            let run = Tool.run(command + ["--log", log])
            #expect(run.status == 1 && run.err.contains("hash chain broken"), "\(command): \(run.status) \(run.err)")
            #expect(!run.out.contains("1.99"))
        }
        let verify = Tool.run(["verify", "--log", log])
        #expect(verify.status == 1 && verify.err.contains("position 17") && verify.err.contains("hash chain broken"), "\(verify.err)")
    }

    @Test func aScrubChecksOnlyWhatWasAppendedAndStillCatchesAChangedVerifiedHead() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
        let scrub = Tool.run(["verify", "--log", s.log, "--since-last", "--format", "json"])
        let report = try #require(Tool.json(scrub.out) as? [String: Any])
        #expect(scrub.status == 0 && report["since"] as? Int == 43 && report["intact"] as? Bool == true, "\(scrub.out)")
        // The verified head's own record changed: the scrub reads it again and says so.
        var segment = try SegmentSurgery(log: s.log)
        try segment.flipByte(inRecord: 43)
        try segment.write()
        let changed = Tool.run(["verify", "--log", s.log, "--since-last"])
        #expect(changed.status == 1 && changed.err.contains("position 43"), "\(changed.err)")
        // A record before the verified head damaged, in a later batch: the scrub names it, and its
        // summary says how far it read back, not a range that runs backwards.
        try segment.flipByte(inRecord: 43)
        try segment.write()
        let more = s.path + "/more.jsonl"
        try Data((1...3).map { #"{"id":"more-\#($0)","type":"paywall_viewed","user":"dora","time":"2026-02-10T00:00:0\#($0)Z","data":{"context":"settings"}}"# + "\n" }.joined().utf8)
            .write(to: URL(fileURLWithPath: more))
        #expect(Tool.run(["import", "--log", s.log, more]).status == 0)
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
        segment = try SegmentSurgery(log: s.log)
        try segment.flipByte(inRecord: 45)
        try segment.write()
        let before = Tool.run(["verify", "--log", s.log, "--since-last"])
        #expect(before.status == 1 && before.err.contains("position 45"), "\(before.err)")
        #expect(before.out.contains("positions 1…43 read back; the damage lies before position 46, where the last verify ended") && !before.out.contains("checked now"), "\(before.out)")
        // The hash it prints is not the log's head: an auditor must not publish it as one.
        #expect(before.out.contains("(of position 43, the last checked before the damage: not the log's head)"), "\(before.out)")
        // A mark that does not check is ignored: a full verify.
        try Data("garbage".utf8).write(to: URL(fileURLWithPath: s.log + "/verified"))
        let full = Tool.run(["verify", "--log", s.log, "--format", "json"])
        #expect((Tool.json(full.out) as? [String: Any])?["since"] is NSNull)
    }
}
