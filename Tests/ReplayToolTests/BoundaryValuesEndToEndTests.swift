import Foundation
import Testing
import TestKit

/// Boundary and out-of-range values through the real binary: import, every query with `--at`,
/// `--from`, `--to` at and past the range edges, and hostile profile files. No run may end by a
/// signal; out-of-range values get a one-line error and a non-zero exit.
@Suite struct BoundaryValuesEndToEnd {
    static func line(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
        #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
    }
    static func purchase(_ txn: String, expires: String, _ extra: String = "") -> String {
        #"{"product":"howru_premium_monthly","transaction":"\#(txn)","expires":"\#(expires)"\#(extra)}"#
    }

    /// Good lines: each value at the edge of its range.
    static let good = [
        line("g1", "account_created", "early", "1970-01-01T00:00:00Z"),
        line("g2", "purchase", "early", "1970-01-01T00:00:00Z", purchase("te", expires: "1970-01-08T00:00:00Z", #","offer":"free_trial""#)),
        line("g3", "purchase", "late", "2199-12-31T00:00:00Z", purchase("tl", expires: "2199-12-31T23:59:59.999999999Z", #","offer":"free_trial""#)),
        line("g4", "billing_issue", "late", "2199-12-31T23:00:00Z"),
        line("g5", "purchase", "rich1", "2026-01-01T00:00:00Z", purchase("r1", expires: "2199-12-31T23:59:59Z", #","price":"1000000000","currency":"USD""#)),
        line("g6", "purchase", "rich2", "2026-01-01T00:00:00Z", purchase("r2", expires: "2199-12-31T23:59:59Z", #","price":"1000000000","currency":"USD""#)),
        line("g7", "purchase", "rich3", "2026-01-01T00:00:00Z", purchase("r3", expires: "2199-12-31T23:59:59Z", #","price":"999999999.999999","currency":"USD""#)),
        line("g8", "consumable_purchase", "sms", "2026-01-01T00:00:00Z", #"{"product":"howru_sms_100","transaction":"s1","quantity":1000000}"#),
        line("g9", "consumable_purchase", "sms", "2026-01-01T00:00:01Z", #"{"product":"howru_sms_100","transaction":"s2","quantity":1000000}"#),
        line("g10", "credits_used", "sms", "2026-01-02T00:00:00Z", #"{"quantity":1}"#),
        line("g11", "paywall_viewed", "early", "1970-01-01T00:00:00.000000001Z", #"{"context":"onboarding"}"#),
    ]

    /// Lines past the ranges, and why each must be refused (a word of the reason).
    static let bad: [(String, String)] = [
        (line("b1", "account_created", "x", "2263-01-01T00:00:00Z"), "out of range"),
        (line("b2", "account_created", "x", "1677-01-01T00:00:00Z"), "out of range"),
        (line("b3", "account_created", "x", "1969-12-31T23:59:59Z"), "out of range"),
        (line("b4", "account_created", "x", "2200-01-01T00:00:00Z"), "out of range"),
        (line("b5", "purchase", "y", "2262-04-10T00:00:00Z", purchase("ty", expires: "2262-04-11T00:00:00Z", #","offer":"free_trial""#)), "out of range"),
        (line("b6", "billing_issue", "y", "2262-04-11T23:00:00Z"), "out of range"),
        (line("b7", "purchase", "z", "2026-01-01T00:00:00Z", purchase("tz", expires: "2262-04-11T23:47:17Z")), "data.expires"),
        (line("b8", "billing_issue", "z", "2026-01-01T00:00:00Z", #"{"graceExpires":"9999-12-31T23:59:59Z"}"#), "data.graceExpires"),
        (line("b9", "purchase", "p1", "2026-01-01T00:00:00Z", purchase("p1", expires: "2026-02-01T00:00:00Z", #","price":"9999999999999""#)), "data.price"),
        (line("b10", "purchase", "p2", "2026-01-01T00:00:00Z", purchase("p2", expires: "2026-02-01T00:00:00Z", #","price":"9000000000000""#)), "data.price"),
        (line("b11", "purchase", "p3", "2026-01-01T00:00:00Z", purchase("p3", expires: "2026-02-01T00:00:00Z", #","price":"9000000000000""#)), "data.price"),
        (line("b12", "purchase", "p4", "2026-01-01T00:00:00Z", purchase("p4", expires: "2026-02-01T00:00:00Z", #","price":"9000000000000""#)), "data.price"),
        (line("b13", "purchase", "p5", "2026-01-01T00:00:00Z", purchase("p5", expires: "2026-02-01T00:00:00Z", #","price":"1000000000.000001""#)), "data.price"),
        (line("b14", "purchase", "p6", "2026-01-01T00:00:00Z", purchase("p6", expires: "2026-02-01T00:00:00Z", #","price":"-1""#)), "data.price"),
        (line("b15", "consumable_purchase", "q", "2026-01-01T00:00:00Z", #"{"product":"howru_sms_100","transaction":"q1","quantity":1000001}"#), "data.quantity"),
        (line("b16", "consumable_purchase", "q", "2026-01-01T00:00:00Z", #"{"product":"howru_sms_100","transaction":"q2","quantity":9223372036854775807}"#), "data.quantity"),
        (line("b17", "consumable_purchase", "q", "2026-01-01T00:00:00Z", #"{"product":"howru_sms_100","transaction":"q3","quantity":99999999999999999999}"#), "data.quantity"),
        (line("b18", "account_created", "nul\\u0000", "2026-01-01T00:00:00Z"), "control character"),
        (line("b19\\u007f", "account_created", "ok", "2026-01-01T00:00:00Z"), "control character"),
    ]

    static let inRange = ["1970-01-01T00:00:00Z", "2026-02-01T00:00:00Z", "2199-12-31T23:59:59.999999999Z"]
    static let outOfRange = ["1969-12-31T23:59:59Z", "2200-01-01T00:00:00Z", "2262-04-11T23:47:17Z", "2263-01-01T00:00:00Z",
                             "1677-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z"]

    /// A log holding the good lines (imported from a file that mixes in the bad ones).
    static func importedLog(_ s: Scratch) -> ToolRun {
        var lines: [String] = []
        for (i, g) in good.enumerated() {
            lines.append(g)
            if i < bad.count { lines.append(bad[i].0) }
        }
        lines += bad.dropFirst(good.count).map(\.0)
        let file = s.path + "/boundary.jsonl"
        _ = FileManager.default.createFile(atPath: file, contents: Data(lines.joined(separator: "\n").utf8))
        return Tool.run(["import", "--log", s.log, "--profile", "howru", file])
    }

    static func expectNoSignal(_ r: ToolRun, _ what: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(!r.signaled && r.status < 128, "\(what) ended by signal \(r.status): \(r.err)", sourceLocation: sourceLocation)
    }

    /// A clean refusal: exit 1 or 2, one line on stderr holding every word of `words`.
    static func expectRefusal(_ r: ToolRun, _ what: String, _ words: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        expectNoSignal(r, what, sourceLocation: sourceLocation)
        #expect(r.status == 1 || r.status == 2, "\(what): exit \(r.status)", sourceLocation: sourceLocation)
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 1 && words.allSatisfy { r.err.contains($0) }, "\(what): \(r.err)", sourceLocation: sourceLocation)
    }

    @Test func importRefusesOutOfRangeLinesOneByOneAndKeepsTheGoodOnes() {
        let s = Scratch()
        let r = Self.importedLog(s)
        Self.expectNoSignal(r, "import")
        #expect(r.status == 1)
        #expect(r.out.hasPrefix("appended \(Self.good.count), duplicates 0, rejected \(Self.bad.count)\n"), "\(r.out)")
        let reasons = r.err.split(separator: "\n").map(String.init)
        #expect(reasons.count == Self.bad.count)
        for (reason, (_, word)) in zip(reasons, Self.bad) {
            #expect(reason.hasPrefix(s.path + "/boundary.jsonl:") && reason.contains(word), "\(reason)")
        }
        let export = Tool.run(["export", "--log", s.log])
        Self.expectNoSignal(export, "export")
        #expect(export.status == 0 && export.out.split(separator: "\n").count == Self.good.count)
        let verify = Tool.run(["verify", "--log", s.log, "--format", "json"])
        Self.expectNoSignal(verify, "verify")
        #expect(verify.status == 0)
    }

    @Test func everyQueryAnswersAtTheRangeEdgesAndRefusesPastThem() {
        let s = Scratch()
        Self.expectNoSignal(Self.importedLog(s), "import")
        let queries: [[String]] = [["state", "--user", "late"], ["history", "--user", "late"], ["state", "--user", "sms"], ["counts"], ["funnel"],
                                   ["notifications"], ["revenue"], ["diff", "--profile", "howru", "--profile", "howru"]]
        for q in queries {
            let base = q + ["--log", s.log, "--format", "json"] + (q[0] == "diff" ? [] : ["--profile", "howru"])
            for t in Self.inRange {
                let r = Tool.run(base + ["--at", t])
                Self.expectNoSignal(r, "\(q) --at \(t)")
                #expect(r.status == 0, "\(q) --at \(t): \(r.err)")
                _ = Tool.json(r.out)
            }
            for t in Self.outOfRange {
                Self.expectRefusal(Tool.run(base + ["--at", t]), "\(q) --at \(t)", ["--at", t, "out of range"])
            }
        }
        for q in [["counts"], ["funnel"], ["revenue"]] {
            for flag in ["--from", "--to"] {
                for t in Self.inRange {
                    let r = Tool.run(q + ["--log", s.log, "--profile", "howru", "--format", "json", flag, t])
                    Self.expectNoSignal(r, "\(q) \(flag) \(t)")
                    #expect(r.status == 0, "\(q) \(flag) \(t): \(r.err)")
                }
                for t in ["2263-01-01T00:00:00Z", "1969-12-31T23:59:59Z"] {
                    Self.expectRefusal(Tool.run(q + ["--log", s.log, "--profile", "howru", flag, t]), "\(q) \(flag) \(t)", [flag, "out of range"])
                }
            }
        }
        Self.expectRefusal(Tool.run(["history", "--log", s.log, "--profile", "howru", "--user", "late", "--as-known-at", "2263-01-01T00:00:00Z"]), "--as-known-at",
                           ["--as-known-at", "out of range"])
        let revenue = Tool.run(["revenue", "--log", s.log, "--profile", "howru", "--format", "json", "--at", "2026-02-01T00:00:00Z"])
        let lines = (Tool.json(revenue.out) as? [String: Any])?["currencies"] as? [[String: Any]]
        // The three largest prices (2,999,999,999.999999) and the other good lines' HowRU purchases (15.98), exactly.
        #expect(lines?.first?["gross"] as? String == "3000000015.979999")
        let sms = Tool.json(Tool.run(["state", "--log", s.log, "--profile", "howru", "--user", "sms", "--format", "json"]).out) as? [String: Any]
        #expect(sms?["credits"] as? Int == 1_999_999)
    }

    @Test func hostileProfileFilesAreRefusedNamingTheFileAndField() throws {
        let s = Scratch()
        Self.expectNoSignal(Self.importedLog(s), "import")
        let template = try JSONSerialization.jsonObject(with: Data(Tool.run(["profiles", "show", "howru"]).out.utf8)) as! [String: Any]
        func write(_ name: String, _ edit: (inout [String: Any]) -> Void) -> String {
            var o = template
            edit(&o)
            let path = s.path + "/" + name + ".json"
            _ = FileManager.default.createFile(atPath: path, contents: try! JSONSerialization.data(withJSONObject: o))
            return path
        }
        func product(_ o: inout [String: Any], _ key: String, _ value: Any) {
            var products = o["products"] as! [[String: Any]]
            products[0][key] = value
            o["products"] = products
        }
        let hostile: [(String, String)] = [
            (write("grace") { $0["billingGraceDays"] = Int64.max }, "billingGraceDays"),
            (write("lead") { $0["trialReminderLeadHours"] = 1e15 }, "trialReminderLeadHours"),
            (write("unverified") { $0["unverifiedGraceHours"] = Int64.min }, "unverifiedGraceHours"),
            (write("price") { product(&$0, "price", "9999999999999") }, "products[0].price"),
            (write("months") { product(&$0, "periodMonths", 1_000_000) }, "products[0].periodMonths"),
            (write("fraction") { $0["trialDays"] = 1.5 }, "trialDays"),
            (write("name") { $0["name"] = "../../../../outside/evil" }, "name"),
        ]
        let commands: [[String]] = [["counts"], ["revenue"], ["notifications"], ["funnel"], ["state", "--user", "late"], ["history", "--user", "late"]]
        for (path, field) in hostile {
            for c in commands {
                Self.expectRefusal(Tool.run(c + ["--log", s.log, "--profile", path, "--at", "2199-12-31T23:59:59Z"]), "\(c) \(field)", [path, field])
            }
            Self.expectRefusal(Tool.run(["diff", "--log", s.log, "--profile", "howru", "--profile", path]), "diff \(field)", [path, field])
            Self.expectRefusal(Tool.run(["import", "--log", s.log, "--profile", path, s.path + "/boundary.jsonl"]), "import \(field)", [path, field])
        }
        #expect(!FileManager.default.fileExists(atPath: s.path + "/outside"))
        let widest = write("widest") { o in
            o["name"] = "widest"
            o["trialDays"] = 3650; o["billingGraceDays"] = 3650; o["unverifiedGraceHours"] = 87_600
            o["trialReminderLeadHours"] = 87_600; o["commissionPercent"] = 100
            product(&o, "price", "1000000000"); product(&o, "periodMonths", 120)
        }
        for c in commands + [["diff", "--profile", "howru"]] {
            for t in Self.inRange {
                let r = Tool.run(c + ["--log", s.log, "--profile", widest, "--at", t, "--format", "json"])
                Self.expectNoSignal(r, "\(c) widest --at \(t)")
                #expect(r.status == 0, "\(c) widest --at \(t): \(r.err)")
            }
        }
    }

    @Test func storePayloadsWithHugeMillisecondsAndMilliunitsAreRefused() {
        let s = Scratch()
        func apple(_ id: String, _ tx: String) -> String {
            #"{"notificationType":"SUBSCRIBED","notificationUUID":"\#(id)","signedDate":1775000000000,"data":{"environment":"Production","signedTransactionInfo":{"appAccountToken":"u1","productId":"handz.pro.monthly","transactionId":"\#(id)",\#(tx)}}}"#
        }
        let lines = [
            apple("a1", #""purchaseDate":1775000000000,"expiresDate":1777592000000,"price":9990,"currency":"USD""#),
            apple("a2", #""purchaseDate":1775000000000,"expiresDate":9223372036854775807,"price":9990,"currency":"USD""#),
            apple("a3", #""purchaseDate":1775000000000,"expiresDate":1777592000000,"price":9223372036854775807,"currency":"USD""#),
            apple("a4", #""purchaseDate":-9223372036854775808,"expiresDate":1777592000000""#),
            apple("a5", #""purchaseDate":1775000000000,"expiresDate":1e300""#),
            apple("a6", #""purchaseDate":1775000000000,"expiresDate":1777592000000,"price":-9990,"currency":"USD""#),
        ]
        let file = s.path + "/apple.jsonl"
        _ = FileManager.default.createFile(atPath: file, contents: Data(lines.joined(separator: "\n").utf8))
        let r = Tool.run(["import", "--log", s.log, "--from", "appstore", "--unverified-jws", file])
        Self.expectNoSignal(r, "import --from appstore")
        #expect(r.status == 1 && r.out.hasPrefix("appended 1, duplicates 0, rejected 5"), "\(r.out)")
        let export = Tool.run(["export", "--log", s.log])
        #expect(export.status == 0 && export.out.split(separator: "\n").count == 1, "\(export.err)")
    }
}
