import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import PostgresSink

/// What a sync decides before and around PostgreSQL, without a server: whether a table's
/// checkpoint may be trusted (this log, these rules), a log of another app refused, the instant
/// cut to microseconds, and the `--init` script handed to psql (here a stand-in that records it).
@Suite struct PostgresSyncDecisions {
    static func now(_ log: EventLog, profile: Profile) throws -> SyncCheckpoint {
        let head = log.head.position
        return SyncCheckpoint(profile: profile.name, profileDigest: PostgresSync.digest(profile), rulesFingerprint: "rules",
                              mappingVersion: SyncTarget.mappingVersion, position: head,
                              chainHash: try #require(try log.chainHash(at: head)).description, asOf: Timestamp(seconds: 1_767_225_600))
    }

    @Test("a checkpoint of this log at or before its head, under the same rules, is trusted; any other is refused saying what to do")
    func trust() throws {
        let test = try TestLog(LedgerFixture.story)
        let log = try EventLog(directory: test.path, access: .read)
        let now = try Self.now(log, profile: .mirrormate)
        try PostgresSync.trust(now, now: now, log: log, target: .mirrormate)
        var earlier = now
        earlier.position = 5
        earlier.chainHash = try #require(try log.chainHash(at: 5)).description
        try PostgresSync.trust(earlier, now: now, log: log, target: .mirrormate)
        func refusal(_ change: (inout SyncCheckpoint) -> Void) -> String? {
            var previous = now
            change(&previous)
            return syncMessage { try PostgresSync.trust(previous, now: now, log: log, target: .mirrormate) }
        }
        for (what, change) in [("a position past the head", { (c: inout SyncCheckpoint) in c.position += 1 }),
                               ("another chain hash", { $0.chainHash = String($0.chainHash.reversed()) }),
                               ("an earlier position with the head's hash", { $0.position = 5 })] as [(String, (inout SyncCheckpoint) -> Void)] {
            let message = refusal(change)
            #expect(message?.hasPrefix("the mirrormate table was synced from another log") == true && message?.hasSuffix("rerun with --rebuild to replace it from this log") == true,
                    "\(what): \(message ?? "trusted")")
        }
        #expect(refusal { $0.rulesFingerprint = "old" } == "the mirrormate table was synced under other rules (rules fingerprint old, now rules): rerun with --rebuild to rewrite it under these")
        #expect(refusal { $0.mappingVersion -= 1 }?.contains("row mapping version \(SyncTarget.mappingVersion - 1), now \(SyncTarget.mappingVersion)") == true)
        #expect(refusal { $0.profileDigest = "x" }?.contains("profile digest x, now ") == true)
    }

    @Test("the profile digest is 16 hex digits that change with the profile")
    func digest() {
        let a = PostgresSync.digest(.mirrormate)
        var changed = Profile.mirrormate
        changed.billingGraceDays += 1
        #expect(a.count == 16 && a.allSatisfy(\.isHexDigit) && a == PostgresSync.digest(.mirrormate))
        #expect(PostgresSync.digest(changed) != a && PostgresSync.digest(.tomo) != a)
    }

    @Test("a log whose subscriptions name a product the profile does not list is refused, naming the user and product")
    func anotherAppsLog() throws {
        let test = try TestLog([buy("a", "handz.pro.monthly", txn: "h1", at: "2026-01-01T00:00:00Z", expires: "2026-02-01T00:00:00Z")])
        let snapshot = try test.replay(at: "2026-01-10T00:00:00Z")
        #expect(throws: SyncError.self) { try PostgresSync.requireCatalog(snapshot, profile: .mirrormate) }
        do { try PostgresSync.requireCatalog(snapshot, profile: .mirrormate) } catch let e as SyncError {
            #expect(e.message == "user 'a' holds product handz.pro.monthly, which profile mirrormate does not list: sync a log under the profile it was imported with")
        }
        try PostgresSync.requireCatalog(snapshot, profile: .handz)
    }

    @Test("the instant is cut to microseconds (what PostgreSQL keeps), down also before 1970", arguments: [
        (Int64(1_767_225_600_123_456_789), Int64(1_767_225_600_123_456_000)), (-1, -1_000), (-1_000, -1_000), (999, 0),
    ])
    func instantCut(nanoseconds: Int64, cut: Int64) throws {
        let sync = PostgresSync(logDirectory: "/nonexistent", profile: .tomo, psql: try Psql(conninfo: "", executable: "/bin/true"),
                                asOf: Timestamp(nanoseconds: nanoseconds))
        #expect(sync.asOf.nanoseconds == cut)
    }

    /// A stand-in for psql answering from folder `s` (passed as the connection string): it saves
    /// its stdin there, prints `out` and `err` and exits with `status`.
    static func fakePsql(_ s: Scratch, out: String, err: String = "", status: Int = 0) throws -> (Psql, String) {
        _ = try s.write(Array(out.utf8), to: "out")
        _ = try s.write(Array(err.utf8), to: "err")
        _ = try s.write(Array(String(status).utf8), to: "status")
        return (try Psql(conninfo: s.path, executable: FakePsql.path), s.path + "/stdin.sql")
    }

    @Test("--init sends one transaction applying each migration in order, once (guarded by ledger_migrations), after the rival check")
    func initScript() throws {
        let s = Scratch()
        let (psql, stdin) = try Self.fakePsql(s, out: "applied ledger/0001_checkpoint\napplied mirrormate/0001_subscriptions\n")
        let sync = PostgresSync(logDirectory: s.log, profile: .mirrormate, psql: psql, asOf: Timestamp(seconds: 0))
        #expect(try sync.initialize() == ["ledger/0001_checkpoint", "mirrormate/0001_subscriptions"])
        let script = try String(contentsOfFile: stdin, encoding: .utf8)
        #expect(script.hasPrefix("SET client_min_messages = warning;\nBEGIN;\n") && script.hasSuffix("COMMIT;\n"))
        let rival = try #require(script.range(of: "WHERE id LIKE 'howru/%'"))
        var last = rival.upperBound
        for (i, m) in SyncTarget.mirrormate.migrations.enumerated() {
            let guarded = "SELECT NOT EXISTS (SELECT 1 FROM ledger_migrations WHERE id = '\(m.id)') AS apply_\(i) \\gset\n\\if :apply_\(i)\n\(m.sql)\nINSERT INTO ledger_migrations (id) VALUES ('\(m.id)');\n\\echo applied \(m.id)\n\\endif\n"
            let at = try #require(script.range(of: guarded), "\(m.id) guarded and recorded")
            #expect(at.lowerBound >= last, "\(m.id) in order")
            last = at.upperBound
        }
        #expect(!script.contains("tomo/"))
    }

    @Test("psql's failure is a SyncError with its first error line, and a missing relation adds the --init hint")
    func psqlFailure() throws {
        let s = Scratch()
        let (psql, _) = try Self.fakePsql(s, out: "", err: "psql:<stdin>:3: ERROR:  relation \"ledger_checkpoint\" does not exist\nLINE 1: x\n", status: 3)
        do {
            _ = try psql.run(script: "SELECT 1;\n")
            Issue.record("a failed psql run was not an error")
        } catch let e as SyncError {
            #expect(e.message.hasPrefix("ERROR:  relation \"ledger_checkpoint\" does not exist (is this database set up for this profile?"), "\(e.message)")
        }
        let sync = PostgresSync(logDirectory: s.log, profile: .howru, psql: psql, asOf: Timestamp(seconds: 0))
        #expect(syncMessage { _ = try sync.checkpoint() }
                == "the database has no ledger_checkpoint table: run replay-tool sync --init first (it applies the howru schema)")
        let quietFolder = Scratch()
        let (quiet, _) = try Self.fakePsql(quietFolder, out: "", status: 2)
        #expect(syncMessage { _ = try quiet.run(script: "SELECT 1;\n") } == "psql ended with status 2")
    }
}

/// The message of the SyncError `body` throws (another error's description), nil if it throws nothing.
func syncMessage(_ body: () throws -> Void) -> String? {
    do { try body() } catch let e as SyncError { return e.message } catch { return "not a SyncError: \(error)" }
    return nil
}

/// One psql stand-in for the whole test process, written once: an executable written while other
/// threads start processes can be briefly held open by a child between its fork and exec (exec
/// then fails with ETXTBSY), so it is written once and launched until it runs, a bounded number of times.
enum FakePsql {
    /// Immutable once made (Scratch holds only its path); left in the temporary folder at exit.
    nonisolated(unsafe) static let folder = Scratch()
    static let path: String = {
        let script = """
            #!/bin/sh
            dir=""
            while [ $# -gt 0 ]; do if [ "$1" = "--dbname" ]; then dir="$2"; fi; shift; done
            [ -n "$dir" ] || exit 0
            cat > "$dir/stdin.sql"
            cat "$dir/out"
            cat "$dir/err" >&2
            exit "$(cat "$dir/status")"

            """
        let path = try! folder.write(Array(script.utf8), to: "psql")
        try! FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: path)
        for _ in 0..<1000 {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: path)
            if (try? probe.run()) != nil { probe.waitUntilExit(); break }
        }
        return path
    }()
}
