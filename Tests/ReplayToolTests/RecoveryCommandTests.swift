import Foundation
import Testing
import TestKit

/// Accepting a shorter log is an explicit command that names what it drops and keeps the
/// dropped bytes; nothing else cuts a record that may have been committed.
@Suite struct RecoveryCommand {
    @Test func aLogCutAtARecordBoundaryWithItsCommittedHeadDeletedKeepsEveryGoodRecord() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)   // one batch of 43
        var segment = try SegmentSurgery(log: s.log)
        try segment.cut(after: 29)
        try segment.write()
        let lost = Tool.run(["verify", "--log", s.log])
        #expect(lost.status == 1 && lost.err.contains("committed records were lost"))
        // What the old docs said to do: delete the checkpoint. The next import must not cut the 29 records.
        try FileManager.default.removeItem(atPath: s.log + "/segments/committed-head")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int)
        let refused = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(refused.status == 1 && refused.err.contains("will not cut") && refused.err.contains("replay-tool recover"), "\(refused.err)")
        #expect(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int == size)
        // recover says what it would do, and does nothing.
        let plan = Tool.run(["recover", "--log", s.log, "--format", "json"])
        let said = try #require(Tool.json(plan.out) as? [String: Any])
        #expect(plan.status == 1 && said["keepPosition"] as? Int == 29 && said["droppedBytes"] as? Int == 0 && said["accepted"] as? Bool == false)
        #expect(try FileManager.default.attributesOfItem(atPath: segment.path)[.size] as? Int == size)
        // Accepted: the 29 records are the committed log, and the import goes on from them.
        #expect(Tool.run(["recover", "--log", s.log, "--accept-loss"]).status == 0)
        let verify = Tool.run(["verify", "--log", s.log, "--format", "json"])
        let v = try #require(Tool.json(verify.out) as? [String: Any])
        #expect(v["intact"] as? Bool == true && v["records"] as? Int == 29 && v["committedPosition"] as? Int == 29, "\(verify.out)")
        let again = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(again.status == 0 && again.out.contains("appended 14"), "\(again.out)")
    }

    @Test func damageInTheMiddleIsCutOnlyWhenAcceptedAndTheDroppedBytesAreKept() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        var segment = try SegmentSurgery(log: s.log)
        let frame = try #require(segment.frames.first { $0.position == 30 })
        try segment.flipByte(inRecord: 30)
        try segment.write()
        let dropped = Array(segment.bytes[frame.start...])
        let plan = Tool.run(["recover", "--log", s.log])
        #expect(plan.status == 1 && plan.out.contains("keeps:     positions 1…29") && plan.out.contains("\(dropped.count) bytes"), "\(plan.out)")
        let accepted = Tool.run(["recover", "--log", s.log, "--accept-loss", "--format", "json"])
        let said = try #require(Tool.json(accepted.out) as? [String: Any])
        let kept = try #require((said["keptFiles"] as? [String])?.first)
        #expect(kept.hasPrefix(s.log + "/recovered/"))
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: kept))) == dropped)
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
        #expect(Tool.run(["recover", "--log", s.log]).status == 0)   // nothing left to do
    }

    /// A frame header that fails its CRC stops the walk over what is dropped: the plan still says
    /// how many committed records the cut loses, from the committed head.
    @Test func aDamagedFrameHeaderStillSaysHowManyCommittedRecordsTheCutLoses() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)   // 43 records, committed
        var segment = try SegmentSurgery(log: s.log)
        let frame = try #require(segment.frames.first { $0.position == 30 })
        segment.bytes[frame.start] ^= 0x40   // its length: the header's own CRC fails
        try segment.write()
        let plan = Tool.run(["recover", "--log", s.log, "--format", "json"])
        let said = try #require(Tool.json(plan.out) as? [String: Any])
        #expect(plan.status == 1 && said["keepPosition"] as? Int == 29 && said["lostCommittedRecords"] as? Int == 14, "\(plan.out)")
        #expect(said["droppedRecords"] as? Int == 0 && said["cutSegmentWhole"] as? Bool == false)
        let text = Tool.run(["recover", "--log", s.log])
        #expect(text.out.contains("14 committed record(s) lost (the committed head names position 43)"), "\(text.out)")
    }

    @Test func aTornTailCutByAWriterIsKeptBesideTheLog() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        let segment = try SegmentSurgery(log: s.log)
        let torn: [UInt8] = [0x40, 0, 0, 0, 1, 2, 3, 4, 5]   // half a frame header: a write cut short
        try Data(segment.bytes + torn).write(to: URL(fileURLWithPath: segment.path))
        let run = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(run.status == 0 && run.err.contains("recovered the log: cut 9 bytes"), "\(run.err)")
        let names = try FileManager.default.contentsOfDirectory(atPath: s.log + "/recovered")
        #expect(names.count == 1)
        #expect([UInt8](try Data(contentsOf: URL(fileURLWithPath: s.log + "/recovered/" + names[0]))) == torn)
    }
}

/// A log holds one app's events: the first import names the app, and another app's profile is
/// refused by imports and queries alike; a profile of the same app with other rules is not.
@Suite struct LogApp {
    @Test func anotherAppsImportAndQueriesAreRefusedAndTheSameAppsRuleChangeIsNot() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", "events/handz.jsonl"]).status == 0)
        let before = folderContents(s.log + "/segments")
        let imported = Tool.run(["import", "--log", s.log, "--profile", "howru", "events/howru.jsonl"])
        #expect(imported.status == 2 && imported.err.contains("holds Handz's events"), "\(imported.err)")
        #expect(folderContents(s.log + "/segments") == before)
        for command in [["revenue"], ["counts"], ["funnel", "--by", "week"], ["state", "--user", "dora"], ["report", "--out", "-"]] {
            let run = Tool.run(command + ["--log", s.log, "--profile", "howru"])
            #expect(run.status == 2 && run.err.contains("holds Handz's events"), "\(command): \(run.err)")
        }
        // The same app with a longer billing grace: a rule change, answered.
        let grace = s.path + "/handz-grace7.json"
        var profile = try #require(Tool.json(Tool.run(["profiles", "show", "handz"]).out) as? [String: Any])
        profile["name"] = "handz-grace7"
        profile["billingGraceDays"] = 7
        try JSONSerialization.data(withJSONObject: profile).write(to: URL(fileURLWithPath: grace))
        #expect(Tool.run(["revenue", "--log", s.log, "--profile", grace]).status == 0)
        #expect(Tool.run(["diff", "--log", s.log, "--profile", "handz", "--profile", grace]).status == 0)
    }

    /// `diff` from the event cache folds neither profile before both are checked against the log's app.
    @Test func diffFromTheEventCacheRefusesAnotherAppsProfileAsAOrB() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "--profile", "handz", "events/handz.jsonl"]).status == 0)
        #expect(Tool.run(["cache", "--log", s.log]).status == 0)
        for pair in [["handz", "howru"], ["howru", "handz"]] {
            let run = Tool.run(["diff", "--log", s.log, "--profile", pair[0], "--profile", pair[1]])
            #expect(run.status == 2 && run.err.contains("holds Handz's events") && run.out.isEmpty, "\(pair): \(run.err)")
        }
    }
}
