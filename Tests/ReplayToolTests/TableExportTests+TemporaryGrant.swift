import Foundation
import Testing
import TestKit

/// TEMPORARY-GRANT in `export --table subscriptions`: a grant's row is marked `temporary_grant`
/// and books nothing, so the SQL of docs/analysts.md gives the ledger's own revenue figures.
extension TableExportTests {
    static let grantLog = [
        // A grant alone; a grant then the confirmed purchase; a paid subscriber given a grant while subscribed.
        #"{"id":"g1","type":"purchase","user":"alone","time":"2026-03-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"a1","expires":"2026-03-02T10:00:00Z","temporaryGrant":true}}"#,
        #"{"id":"g2","type":"purchase","user":"confirmed","time":"2026-03-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"c1","expires":"2026-03-02T10:00:00Z","temporaryGrant":true}}"#,
        #"{"id":"p2","type":"purchase","user":"confirmed","time":"2026-03-01T10:30:00Z","data":{"product":"handz.pro.monthly","transaction":"c1","expires":"2026-04-01T10:30:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"p3","type":"purchase","user":"running","time":"2026-02-20T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"r1","expires":"2026-03-20T00:00:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"g3","type":"purchase","user":"running","time":"2026-03-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"r2","expires":"2026-03-02T10:00:00Z","temporaryGrant":true}}"#,
    ]

    static let grantSQL = #"""
import sys, json, duckdb
path, at = sys.argv[1], sys.argv[2]
con = duckdb.connect()
S = f"read_parquet('{path}')"
rows = con.execute(f'select "user", temporary_grant, price is null, renewal_number is null from {S} where temporary_grant order by "user"').fetchall()
active = con.execute(f"""select count(distinct "user") from {S} where effective_end is null and not sandbox and not family_shared
  and not temporary_grant and not (is_trial and expires > TIMESTAMPTZ '{at}')""").fetchone()[0]
gross = con.execute(f"select coalesce(sum(price), 0) from {S} where not sandbox and price is not null").fetchone()[0]
churned = con.execute(f"""select count(*) from (select "user" from {S} where not sandbox and not family_shared group by "user"
  having count(price) > 0 and count(*) filter (where effective_end is null) = 0)""").fetchone()[0]
print(json.dumps({"grants": [list(r) for r in rows], "active": active, "gross": str(gross), "churned": churned}))
"""#

    @Test("a temporary grant's row is marked and books nothing: the documented SQL gives revenue's figures")
    func temporaryGrantRows() throws {
        guard TablePython.available else { return }
        let s = Scratch()
        let input = s.path + "/grants.jsonl", log = s.path + "/log"
        try (Self.grantLog.joined(separator: "\n") + "\n").write(toFile: input, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", log, "--profile", "handz", input]).status == 0)
        for at in ["2026-03-01T12:00:00Z", "2026-05-01T00:00:00Z"] {
            let out = s.path + "/subscriptions-\(at.prefix(10)).parquet"
            try Self.export([log], "handz", "subscriptions", "parquet", out, at: at)
            let sql = try #require(Tool.json(try TablePython.run(Self.grantSQL, [out, at])) as? [String: Any])
            let revenue = try #require(Tool.json(Tool.run(["revenue", "--log", log, "--profile", "handz", "--format", "json", "--at", at]).out) as? [String: Any])
            let grants = sql["grants"] as? [[Any]] ?? []
            #expect(grants.map { "\($0[0])" } == ["alone", "confirmed"], "as of \(at): one row per grant given while nothing ran: \(grants)")
            #expect(grants.allSatisfy { $0.dropFirst().allSatisfy { ($0 as? Bool) == true } }, "as of \(at): marked, no price, no chain number")
            #expect(sql["active"] as? Int == revenue["activeSubscriptions"] as? Int, "as of \(at): active \(sql) vs \(revenue)")
            #expect(sql["churned"] as? Int == revenue["churnedSubscribers"] as? Int, "as of \(at): churned \(sql) vs \(revenue)")
            let lines = revenue["currencies"] as? [[String: Any]] ?? []
            #expect(Decimal(string: sql["gross"] as? String ?? "") == Decimal(string: lines.first?["gross"] as? String ?? ""), "as of \(at): gross \(sql) vs \(revenue)")
        }
    }
}
