import TestKit
import Foundation

/// Logs and queries for the sync tests.
enum SyncFixture {
    /// A UUID made of a namespace and a number (version-4 shaped, lower case).
    static func uuid(_ namespace: Int, _ n: Int) -> String { String(format: "%08x-0000-4000-8000-%012x", namespace, n) }

    /// The JSON Lines with every user id (`user`, and a transfer's `to`) replaced by a UUID;
    /// returns the text and the mapping (original id to UUID).
    static func withUUIDUsers(_ text: String, namespace: Int) -> (text: String, users: [String: String]) {
        let regex = try! NSRegularExpression(pattern: #""(user|to)":"([^"\\]*)""#)
        var users: [String: String] = [:]
        var out = ""
        var last = text.startIndex
        for m in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            let whole = Range(m.range, in: text)!, field = String(text[Range(m.range(at: 1), in: text)!])
            let name = String(text[Range(m.range(at: 2), in: text)!])
            let id = users[name] ?? uuid(namespace, users.count + 1)
            users[name] = id
            out += text[last..<whole.lowerBound] + "\"\(field)\":\"\(id)\""
            last = whole.upperBound
        }
        out += text[last...]
        return (out, users)
    }

    /// A log holding `text` (imported under `profile`).
    static func log(_ s: Scratch, _ name: String, profile: String, _ text: String) throws -> String {
        let file = s.path + "/\(name).jsonl", log = s.path + "/\(name)-log"
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = Tool.run(["import", "--log", log, "--profile", profile, file])
        guard r.status == 0 else { throw FixtureError("import failed: \(r.err)") }
        return log
    }

    /// Appends `text` to `log`.
    static func append(_ s: Scratch, _ log: String, profile: String, _ text: String) throws {
        let file = s.path + "/append-\(UUID().uuidString).jsonl"
        try! text.write(toFile: file, atomically: true, encoding: .utf8)
        let r = Tool.run(["import", "--log", log, "--profile", profile, file])
        guard r.status == 0 else { throw FixtureError("import failed: \(r.err)") }
    }

    /// `sync … --format json` with `extra` options.
    static func sync(_ log: String, _ profile: String, _ db: String, _ extra: [String], now: String? = "2026-02-06T12:00:00Z") -> ToolRun {
        Tool.run(["sync", "--log", log, "--profile", profile, "--postgres", db, "--format", "json"] + extra, now: now)
    }

    /// `state --format json` of one user.
    static func state(_ log: String, _ profile: String, _ user: String, at: String) throws -> [String: Any] {
        let r = Tool.run(["state", "--log", log, "--profile", profile, "--user", user, "--format", "json", "--at", at])
        guard r.status == 0 else { throw FixtureError("state failed: \(r.err)") }
        return Tool.json(r.out) as! [String: Any]
    }

    /// A time column as the tool prints times (RFC 3339, UTC, whole seconds).
    static func utc(_ column: String) -> String {
        "coalesce(to_char(\(column) AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), '')"
    }

    /// A timestamp-without-time-zone column (HowRU's), written in UTC.
    static func utcNaive(_ column: String) -> String {
        "coalesce(to_char(\(column), 'YYYY-MM-DD\"T\"HH24:MI:SS\"Z\"'), '')"
    }

    /// The checkpoint and a digest of the target table's synced columns: the database's whole state as a sync sees it.
    static func snapshot(_ pg: TestPostgres, _ db: String) throws -> String {
        try pg.rows(db, """
            SELECT coalesce((SELECT log_position || ' ' || log_chain_hash || ' ' || as_of FROM ledger_checkpoint), 'none')
              || ' ' || (SELECT count(*) FROM subscriptions) || ' ' ||
              coalesce((SELECT md5(string_agg(concat_ws(',', user_id, transaction_id, product_id, status, expires_at, auto_renew_enabled,
                is_trial, trial_ends_at, purchased_at, cancelled_at), ';' ORDER BY user_id, product_id)) FROM subscriptions), '');
            """).first?.first ?? ""
    }

    /// A story of one user as JSON Lines (times relative to `base`, in hours).
    static func event(_ id: String, _ type: String, _ user: String, _ base: Date, hours: Double, _ data: String = "{}") -> String {
        #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(rfc3339(base.addingTimeInterval(hours * 3600)))","data":\#(data)}"#
    }

    static func rfc3339(_ d: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: d)
    }
}

/// A fixture step that failed (recorded as the test's error, not a crash of the test process).
struct FixtureError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
