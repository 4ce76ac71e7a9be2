import Foundation
import Testing
import TestKit

/// A kept file of `DIR/projections/` (projection, report summary, time index and its overlay,
/// analysts' model, event cache) found to be a FIFO or a character device is not waited on nor
/// read without end: the question is answered as with nothing kept, and the node is replaced
/// by the file built (renamed over it).
@Suite struct KeptFileNodes {
    static let now = "2026-12-31T00:00:00Z"
    static let questions = [
        ["counts", "--at", "2026-05-01T00:00:00Z"], ["counts"], ["notifications", "--at", "2026-04-01T00:00:00Z"],
        ["metrics"], ["funnel", "--by", "week"], ["notifications"],
    ]

    /// Each question's JSON on the log at `log`; a process that waits is killed by `timeout` (a failure, not a hang).
    static func answers(_ log: String) -> [String] {
        questions.map { q in
            let r = Tool.run(q + ["--log", log, "--format", "json"], now: now, via: ["/usr/bin/timeout", "-s", "KILL", "300"])
            #expect(r.status == 0, "\(q.joined(separator: " ")): exit \(r.status) \(r.err)")
            return r.out
        }
    }

    @Test(arguments: ["FIFO", "character device"])
    func aNodeWhereAKeptFileBelongsIsBuiltOverNotWaitedOn(_ kind: String) throws {
        let s = Scratch()
        let events = s.path + "/events.jsonl"
        #expect(Tool.run(["generate", "--users", "300", "--seed", "2", "--out", events]).status == 0)
        #expect(Tool.run(["import", "--log", s.log, events], now: Self.now).status == 0)
        let expected = Self.answers(s.log)
        let folder = s.log + "/projections"
        let kept = try FileManager.default.contentsOfDirectory(atPath: folder).filter { !$0.hasSuffix(".fingerprint") }
        let overlay = try #require(kept.first { $0.hasSuffix(".timeindex") }) + "-overlay"
        #expect(kept.count >= 5, "\(kept)")
        for name in kept + [overlay] {
            let path = folder + "/" + name
            try? FileManager.default.removeItem(atPath: path)
            if kind == "FIFO" {
                #expect(mkfifo(path, 0o644) == 0)
            } else if mknod(path, S_IFCHR | 0o666, dev_t(1 << 8 | 5)) != 0 {   // like /dev/zero: reads never end
                print("KeptFileNodes: mknod refused (not root): the device case is left out")
                return
            }
        }
        #expect(Self.answers(s.log) == expected, "the answers with \(kind)s in place of the kept files")
        for name in kept {
            var st = stat()
            #expect(lstat(folder + "/" + name, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG, "\(name) is a regular file again")
        }
    }
}
