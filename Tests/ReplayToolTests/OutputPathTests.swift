import Foundation
import Testing
import TestKit

/// Files a person names with `--out`: a regular file is replaced whole, anything else under the
/// name (a link, a FIFO, a device, a folder) is refused and left as it was; `-` is standard output.
@Suite struct OutputPaths {
    /// A log with the handz sample, for the commands that write files.
    static func log(_ s: Scratch) -> String {
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"]).status == 0)
        return s.log
    }

    /// The commands that write a file named by `--out`, with that name.
    static func writers(log: String, out: String) -> [[String]] {
        [["report", "--log", log, "--out", out], ["generate", "--users", "3", "--out", out]]
    }

    @Test func aOneCharacterNameAndOddNamesAreWrittenAsNamed() throws {
        let s = Scratch()
        let log = Self.log(s)
        try FileManager.default.createDirectory(atPath: s.path + "/sub", withIntermediateDirectories: true)
        for name in ["a", "-x", "with space.html", "naïve-日本.html", s.path + "/absolute.html", "./b", "sub/../c"] {
            for command in Self.writers(log: log, out: name) {
                let run = Tool.run(command, cwd: s.path)
                #expect(run.status == 0 && !run.signaled, "\(command): \(run.status) \(run.err)")
                let path = name.hasPrefix("/") ? name : s.path + "/" + name
                #expect(FileManager.default.fileExists(atPath: path), "\(command) did not write \(path)")
            }
        }
        // And logs under odd names, relative and absolute.
        for name in ["L", "a log", "журнал", s.path + "/abs log"] {
            #expect(Tool.run(["import", "--log", name, Tool.packageRoot + "/events/handz.jsonl"], cwd: s.path).status == 0, "\(name)")
            #expect(Tool.run(["counts", "--log", name], cwd: s.path).status == 0, "\(name)")
            #expect(Tool.run(["report", "--log", name, "--out", name + ".html"], cwd: s.path).status == 0, "\(name)")
        }
    }

    @Test func aSymbolicLinkAFIFOADeviceAndAFolderAreRefusedAndLeftAsTheyWere() throws {
        let s = Scratch()
        let log = Self.log(s)
        let target = s.path + "/target.txt"
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let link = s.path + "/link.html"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        let fifo = s.path + "/fifo"
        #expect(mkfifo(fifo, 0o644) == 0)
        let folder = s.path + "/folder"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // A node like /dev/full, made here (tests run as root; without root the node is left out).
        let device = s.path + "/full"
        let haveDevice = mknod(device, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0
        var names = [(link, "a symbolic link"), (fifo, "a FIFO"), (folder, "a folder")]
        if haveDevice { names.append((device, "a character device")) } else { print("OutputPaths: mknod refused (not root): the device case is left out") }
        for (name, kind) in names {
            for command in Self.writers(log: log, out: name) {
                let run = Tool.run(command)
                #expect(run.status == 1 && run.err.contains("is \(kind)") && run.err.split(separator: "\n").count == 1, "\(command): \(run.err)")
            }
        }
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link)) == target)
        #expect(String(decoding: FileManager.default.contents(atPath: target) ?? Data(), as: UTF8.self) == "keep me")
        var st = stat()
        #expect(lstat(fifo, &st) == 0 && st.st_mode & S_IFMT == S_IFIFO)
        if haveDevice { #expect(lstat(device, &st) == 0 && st.st_mode & S_IFMT == S_IFCHR) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
        // A partition file under a link is refused too, and the link's target kept.
        let parts = s.path + "/parts"
        try FileManager.default.createDirectory(atPath: parts, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: parts + "/partition-0.jsonl", withDestinationPath: target)
        #expect(Tool.run(["partition", "--of", "2", "--out", parts, "events/handz.jsonl"]).status == 1)
        #expect(String(decoding: FileManager.default.contents(atPath: target) ?? Data(), as: UTF8.self) == "keep me")
    }

    @Test func aDashIsStandardOutputForEveryOut() throws {
        let s = Scratch()
        let log = Self.log(s)
        let generated = Tool.run(["generate", "--users", "2", "--out", "-"], cwd: s.path)
        #expect(generated.status == 0 && generated.out.contains("\"type\""))
        let report = Tool.run(["report", "--log", log, "--out", "-"], cwd: s.path)
        #expect(report.status == 0 && report.out.hasPrefix("<!DOCTYPE html>"), "\(report.out.prefix(40))")
        #expect(!FileManager.default.fileExists(atPath: s.path + "/-"))
    }

    @Test func aFullStandardOutputIsAnErrorForEveryCommand() throws {
        let s = Scratch()
        let log = Self.log(s)
        let full = s.path + "/full"
        guard mknod(full, S_IFCHR | 0o666, dev_t(1 << 8 | 7)) == 0 else {
            print("OutputPaths: mknod refused (not root): a full standard output is not tried")
            return
        }
        let commands: [[String]] = [
            ["export"], ["counts"], ["counts", "--format", "json"], ["funnel"], ["revenue"], ["notifications"], ["notifications", "--format", "json"],
            ["state", "--user", "dora"], ["history", "--user", "carol"], ["verify"], ["report", "--out", "-"], ["recover"],
            ["counts", "--by", "week"], ["diff", "--profile", "handz", "--profile", "handz"],
        ]
        for command in commands {
            let run = Tool.run(command + ["--log", log], stdout: full)
            #expect(run.status == 1 && run.err.contains("cannot write to standard output") && run.err.contains("No space left on device"),
                    "\(command): \(run.status) \(run.err)")
        }
        let generated = Tool.run(["generate", "--users", "2"], stdout: full)
        #expect(generated.status == 1 && generated.err.contains("cannot write to standard output"))
        // import --follow: an acknowledgment that cannot be written ends the run with an error.
        let line = try String(contentsOfFile: Tool.packageRoot + "/events/tomo.jsonl", encoding: .utf8).split(separator: "\n")[0]
        let follow = Tool.run(["import", "--log", s.path + "/tomo", "--profile", "tomo", "--follow", "-"], stdin: line + "\n", stdout: full)
        #expect(follow.status == 1 && follow.err.contains("cannot write to standard output"), "\(follow.err)")
    }
}
