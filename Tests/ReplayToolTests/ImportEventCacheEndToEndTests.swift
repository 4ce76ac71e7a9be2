import Foundation
import Testing
import TestKit

/// The event cache `import` writes into an empty log: only for an import that went through and
/// appended something, and a cache it could not write is said on stderr while the import stands.
extension ImportAndExport {
    /// `ulimit -f` (12 KiB: 40 generated events fit, not 40 more) stops the import part way
    /// (ResourceLimits): what was committed stays, and no event cache is written for it.
    @Test func anImportIntoAnEmptyLogThatStopsPartWayWritesNoEventCache() throws {
        let s = Scratch()
        let population = s.path + "/population.jsonl"
        #expect(Tool.run(["generate", "--users", "40", "--seed", "5", "--profile", "handz", "--out", population]).status == 0)
        let (reason, status, message) = try Tool.runUnderFileSizeLimit(kib: 12,
            "REPLAY_TOOL_IMPORT_BATCH=10 \"$0\" import --log \"$1\" \"$2\"", [Tool.binary, s.log, population])
        #expect(reason == .exit && status == 1, "status \(status): \(message)")
        #expect(message.contains("File too large"), "\(message)")
        let verify = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as? [String: Any]
        #expect(verify?["intact"] as? Bool == true && (verify?["records"] as? Int ?? 0) > 0, "\(String(describing: verify))")
        #expect(!FileManager.default.fileExists(atPath: s.log + "/projections/events.cache"))
    }

    /// An import into an empty log that appends nothing (its one line rejected) has no cache to write, and says nothing of one.
    @Test func anImportIntoAnEmptyLogThatAppendsNothingSaysNothingOfTheEventCache() {
        let s = Scratch()
        let r = Tool.run(["import", "--log", s.log, "-"], stdin: "not json\n")
        #expect(r.status == 1 && r.out.contains("appended 0"), "\(r.out)\(r.err)")
        #expect(!r.err.contains("event cache"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: s.log + "/projections/events.cache"))
    }

    /// A file where the projections folder should be: the import stands (exit 0, every event in the
    /// log) and stderr says the event cache was not written, and why.
    @Test func anEventCacheTheImportCannotWriteIsSaidOnStderrAndTheImportStands() throws {
        let s = Scratch()
        try FileManager.default.createDirectory(atPath: s.log, withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: s.log + "/projections", contents: Data("in the way\n".utf8)))
        let r = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("the event cache was not written") && r.err.contains("projections/events.cache"), "\(r.err)")
        let verify = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as? [String: Any]
        #expect(verify?["intact"] as? Bool == true && verify?["records"] as? Int == 43, "\(String(describing: verify))")
    }

    /// An import of one partition into an empty log gathers only the events it appends (the
    /// others skipped): the cache `cache` builds from the log, byte for byte.
    @Test func anImportOfOnePartitionIntoAnEmptyLogWritesTheEventCacheTheCacheCommandBuilds() throws {
        let s = Scratch()
        let population = s.path + "/population.jsonl"
        let cachePath = s.log + "/projections/events.cache"
        #expect(Tool.run(["generate", "--users", "60", "--seed", "9", "--profile", "handz", "--out", population]).status == 0)
        let r = Tool.run(["import", "--log", s.log, "--partition", "1/3", population, "--format", "json"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        let summary = Tool.json(r.out) as? [String: Any]
        #expect((summary?["appended"] as? Int ?? 0) > 0 && (summary?["skippedOtherPartitions"] as? Int ?? 0) > 0, "\(r.out)")
        let gathered = try #require(FileManager.default.contents(atPath: cachePath))
        try FileManager.default.removeItem(atPath: cachePath)
        #expect(Tool.run(["cache", "--log", s.log]).status == 0)
        #expect(FileManager.default.contents(atPath: cachePath) == gathered)
    }
}
