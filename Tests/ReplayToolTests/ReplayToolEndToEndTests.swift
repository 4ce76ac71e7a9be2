import Foundation
import Testing
import TestKit

@Suite struct ImportAndExport {
    @Test func importAppendsReportsDuplicatesAndIsIdempotent() {
        let s = Scratch()
        let first = Tool.run(["import", "--log", s.log, "events/handz.jsonl", "--format", "json"])
        #expect(first.status == 0)
        let summary = Tool.json(first.out) as! [String: Any]
        #expect(summary["appended"] as? Int == 43 && summary["duplicates"] as? Int == 1 && summary["rejected"] as? Int == 0)
        let again = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(again.status == 0 && again.out == "appended 0, duplicates 44, rejected 0\n")
    }

    @Test func badLinesAreRejectedByFileAndLineKeptVerbatimAndGoodLinesGoIn() throws {
        let s = Scratch()
        let r = Tool.run(["import", "--log", s.log, "events/bad/bad-lines.jsonl"])
        #expect(r.status == 1)
        let reasons = r.err.split(separator: "\n").map(String.init)
        #expect(reasons == [
            "events/bad/bad-lines.jsonl:2: expected '{' (an event is a JSON object) (column 1)",
            "events/bad/bad-lines.jsonl:3: type 'purchase' requires data.expires",
            "events/bad/bad-lines.jsonl:4: unknown event type 'upgrade'",
            "events/bad/bad-lines.jsonl:5: field 'time': '10 Jan 2026' is not an RFC 3339 time such as 2026-01-06T10:00:00Z",
            "events/bad/bad-lines.jsonl:6: field 'data.price': expected a decimal string such as \"9.99\" (money is never a JSON number) (column 112)",
            "events/bad/bad-lines.jsonl:7: missing required field 'user'",
        ])
        #expect(r.out.hasPrefix("appended 2, duplicates 0, rejected 6\n"))
        let kept = try FileManager.default.contentsOfDirectory(atPath: s.log + "/rejected").filter { $0.hasSuffix(".jsonl") }
        #expect(kept.count == 1)
        let original = try String(contentsOfFile: Tool.packageRoot + "/events/bad/bad-lines.jsonl", encoding: .utf8).split(separator: "\n")
        let saved = try String(contentsOfFile: s.log + "/rejected/" + kept[0], encoding: .utf8).split(separator: "\n")
        #expect(saved == Array(original[1...6]))
        let export = Tool.run(["export", "--log", s.log])
        #expect(export.out.split(separator: "\n").count == 2)
    }

    @Test func cacheWritesTheEventCacheAndRebuildsAnswerTheSame() throws {
        let s = Scratch()
        #expect(Tool.run(["import", "--log", s.log, "events/handz.jsonl"], environment: ["REPLAY_TOOL_IMPORT_EVENT_CACHE": "off"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: s.log + "/projections/events.cache"))
        let grace = Queries.handzGraceSeven(s)
        let before = Tool.run(["diff", "--log", s.log, "--profile", "handz", "--profile", grace, "--format", "json", "--at", "2026-02-06T12:00:00Z"])
        let built = Tool.run(["cache", "--log", s.log, "--format", "json"])
        #expect(built.status == 0)
        let summary = try #require(Tool.json(built.out) as? [String: Any])
        let events = try #require(summary["events"] as? Int)
        #expect(events > 0 && summary["bytes"] as? Int ?? 0 > 0)
        #expect(FileManager.default.fileExists(atPath: s.log + "/projections/events.cache"))
        let after = Tool.run(["diff", "--log", s.log, "--profile", "handz", "--profile", grace, "--format", "json", "--at", "2026-02-06T12:00:00Z"])
        #expect(before.status == after.status && before.out == after.out && !after.out.isEmpty)
        #expect(Tool.run(["cache", "--log", s.log + "/missing"]).status != 0)
    }

    /// An import into an empty log writes the event cache `cache` would build; a later import does not touch it.
    @Test func anImportIntoAnEmptyLogWritesTheEventCacheTheCacheCommandBuilds() throws {
        let s = Scratch()
        let cachePath = s.log + "/projections/events.cache"
        let r = Tool.run(["import", "--log", s.log, "events/handz.jsonl"])
        #expect(r.status == 0 && r.err.isEmpty, "\(r.err)")
        let gathered = try #require(FileManager.default.contents(atPath: cachePath))
        try FileManager.default.removeItem(atPath: cachePath)
        #expect(Tool.run(["cache", "--log", s.log]).status == 0)
        #expect(FileManager.default.contents(atPath: cachePath) == gathered)
        let line = #"{"id":"x1","type":"account_created","user":"zed","time":"2026-01-01T00:00:00Z"}"#
        #expect(Tool.run(["import", "--log", s.log, "-"], stdin: line + "\n").status == 0)
        #expect(FileManager.default.contents(atPath: cachePath) == gathered, "a later import leaves the cache (now of an older head) as it was")
    }

    @Test func importReadsStandardInput() {
        let s = Scratch()
        let line = #"{"id":"x1","type":"account_created","user":"zed","time":"2026-01-01T00:00:00Z"}"#
        let r = Tool.run(["import", "--log", s.log, "-"], stdin: line + "\n")
        #expect(r.status == 0 && r.out == "appended 1, duplicates 0, rejected 0\n")
    }

    @Test func storePayloadsImportWithSkippedTypesCountedAndBadPayloadsNamed() throws {
        let s = Scratch()
        // The family member's app reports the shared transaction first: its notifications carry no appAccountToken.
        #expect(Tool.run(["import", "--log", s.log, "--profile", "events/stores/profile.json", "events/stores/app-reports.jsonl"]).status == 0)
        let apple = Tool.run(["import", "--log", s.log, "--from", "appstore", "--unverified-jws", "--profile", "events/stores/profile.json", "events/stores/appstore-story.jsonl"])
        #expect(apple.status == 0 && apple.out == "appended 15, duplicates 1, rejected 0, skipped 1 (TEST 1)\n")
        let bad = s.path + "/bad.jsonl"
        try (#"{"notificationType":"DID_RENEW","notificationUUID":"z","signedDate":1,"data":{"signedTransactionInfo":"eyJ.bm90IGpzb24.sig"}}"# + "\n"
             + #"{"api_version":"1.0","event":{"type":"TEST","id":"t"}}"# + "\n").write(toFile: bad, atomically: true, encoding: .utf8)
        let r = Tool.run(["import", "--log", s.log, "--from", "appstore", "--unverified-jws", bad])
        #expect(r.status == 1)
        #expect(r.err.contains(bad + ":1: data.signedTransactionInfo: the JWS payload is not a base64url-encoded JSON object"))
        #expect(r.err.contains(bad + ":2: a notification needs notificationType"))
        // The raw body a server receives: {"signedPayload": JWS}, taken without verifying the signature (--unverified-jws).
        let notification = #"{"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","notificationUUID":"jws-1","signedDate":1775000000000,"data":{"environment":"Production","signedTransactionInfo":{"appAccountToken":"jws-user","productId":"handz.pro.monthly","transactionId":"j1","purchaseDate":1775000000000,"expiresDate":1777592000000,"price":9990,"currency":"USD"}}}"#
        let payload = Data(notification.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let raw = s.path + "/raw.jsonl"
        try (#"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9."# + payload + #".c2ln"}"# + "\n").write(toFile: raw, atomically: true, encoding: .utf8)
        // A line whose user the log cannot key: rejected alone, kept, exit 1; the others go in.
        let keyless = s.path + "/keyless.jsonl"
        let good = { (uuid: String, type: String, subtype: String) in
            #"{"notificationType":"\#(type)","subtype":"\#(subtype)","notificationUUID":"\#(uuid)","signedDate":1775000000000,"data":{"signedTransactionInfo":{"appAccountToken":"k-user","originalTransactionId":"k1","productId":"handz.pro.monthly","transactionId":"k1","purchaseDate":1775000000000,"expiresDate":1777592000000}}}"#
        }
        let empty = #"{"notificationType":"DID_CHANGE_RENEWAL_STATUS","subtype":"AUTO_RENEW_DISABLED","notificationUUID":"k-2","signedDate":1775000001000,"data":{"signedTransactionInfo":{"appAccountToken":"","originalTransactionId":"elsewhere"}}}"#
        try ([good("k-1", "SUBSCRIBED", "INITIAL_BUY"), empty, good("k-3", "DID_CHANGE_RENEWAL_STATUS", "AUTO_RENEW_ENABLED")].joined(separator: "\n") + "\n")
            .write(toFile: keyless, atomically: true, encoding: .utf8)
        let k = Tool.run(["import", "--log", s.path + "/keyless", "--from", "appstore", "--unverified-jws", keyless])
        #expect(k.status == 1 && k.out.hasPrefix("appended 2, duplicates 0, rejected 1"), "\(k.out) \(k.err)")
        #expect(k.err.contains(keyless + ":2: notificationType DID_CHANGE_RENEWAL_STATUS/AUTO_RENEW_DISABLED has no appAccountToken"))
        let signed = Tool.run(["import", "--log", s.log, "--from", "appstore", "--unverified-jws", raw])
        #expect(signed.status == 0 && signed.out == "appended 1, duplicates 0, rejected 0, skipped 0\n1 line(s) taken from signed JWS without verifying the signature (docs/importers.md)\n")
        let rc = Tool.run(["import", "--log", s.path + "/rc", "--from", "revenuecat", "--profile", "events/stores/profile.json", "events/stores/revenuecat-story.jsonl", "--format", "json"])
        let o = Tool.json(rc.out) as! [String: Any]
        #expect(o["appended"] as? Int == 16 && o["skipped"] as? Int == 1 && (o["skippedByType"] as? [String: Int]) == ["TEST": 1])
        #expect(Tool.run(["import", "--log", s.log, "--from", "stripe", bad]).status == 2)
    }

    @Test func exportPrintsMetadataAndReimportsToTheSameLog() throws {
        let s = Scratch()
        Tool.run(["import", "--log", s.log, "--profile", "howru", "events/howru.jsonl"], now: "2026-03-01T00:00:00Z")
        let export = Tool.run(["export", "--log", s.log])
        let lines = export.out.split(separator: "\n")
        #expect(lines.count == 10)
        let first = Tool.json(String(lines[0])) as! [String: Any]
        #expect(first["position"] as? Int == 1 && first["version"] as? Int == 1 && first["recorded"] as? String == "2026-03-01T00:00:00Z")
        let path = s.path + "/export.jsonl"
        try export.out.write(toFile: path, atomically: true, encoding: .utf8)
        let copy = s.path + "/copy"
        #expect(Tool.run(["import", "--log", copy, "--profile", "howru", path], now: "2026-03-01T00:00:00Z").out == "appended 10, duplicates 0, rejected 0\n")
        #expect(Tool.run(["export", "--log", copy]).out == export.out)
    }

    @Test func twoImportersAtOnceInterleaveWithoutLossOrGaps() throws {
        let s = Scratch()
        let a = s.path + "/a.jsonl", b = s.path + "/b.jsonl"
        Tool.run(["generate", "--users", "300", "--seed", "7", "--out", a])
        Tool.run(["generate", "--users", "300", "--seed", "8", "--out", b])
        let bLines = try String(contentsOfFile: b, encoding: .utf8).replacingOccurrences(of: "\"u_", with: "\"w_")
        try bLines.write(toFile: b, atomically: true, encoding: .utf8)
        let group = DispatchGroup()
        nonisolated(unsafe) var results: [ToolRun] = []
        let lock = NSLock()
        let log = s.log
        for f in [a, b] {
            DispatchQueue.global().async(group: group) {
                let r = Tool.run(["import", "--log", log, f, "--format", "json"])
                lock.withLock { results.append(r) }
            }
        }
        group.wait()
        #expect(results.allSatisfy { $0.status == 0 })
        let appended = results.map { (Tool.json($0.out) as! [String: Any])["appended"] as! Int }.reduce(0, +)
        let verify = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as! [String: Any]
        #expect(verify["intact"] as? Bool == true)
        #expect(verify["records"] as? Int == appended)
        #expect(verify["headPosition"] as? Int == appended)
    }
}

@Suite struct Queries {
    static func handzLog() -> Scratch {
        let s = Scratch()
        Tool.run(["import", "--log", s.log, "events/handz.jsonl"], now: "2026-02-06T12:00:00Z")
        return s
    }

    /// Four more Handz events (new users' accounts) in a file of `s`, for a second import into a
    /// Handz log (a log holds one app's events).
    static func moreHandz(_ s: Scratch) -> String {
        let path = s.path + "/more-handz.jsonl"
        let lines = (1...4).map { #"{"id":"more-\#($0)","type":"account_created","user":"newcomer-\#($0)","time":"2026-02-0\#($0)T10:00:00Z","data":{},"source":"server"}"# }
        try! (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// A profile file of Handz with a billing grace of 7 days instead of 3: a rule change of the same app.
    static func handzGraceSeven(_ s: Scratch) -> String {
        var profile = Tool.json(Tool.run(["profiles", "show", "handz"]).out) as! [String: Any]
        profile["name"] = "handz-grace7"
        profile["billingGraceDays"] = 7
        let path = s.path + "/handz-grace7.json"
        try! JSONSerialization.data(withJSONObject: profile).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func stateJSONHasEveryContractKey() {
        let s = Self.handzLog()
        let r = Tool.run(["state", "--log", s.log, "--user", "dora", "--at", "2026-02-06T12:00:00Z", "--format", "json"])
        #expect(r.status == 0)
        let o = Tool.json(r.out) as! [String: Any]
        for key in ["user", "planState", "graceReason", "graceEndsAt", "entitlements", "product", "expiresAt", "autoRenew", "trialEligible", "credits", "billingIssue", "badge"] {
            #expect(o.keys.contains(key), "\(key)")
        }
        #expect(o["planState"] as? String == "pro_grace" && o["graceReason"] as? String == "billing")
        #expect(o["graceEndsAt"] as? String == "2026-02-07T12:00:00Z" && o["badge"] as? Int == 1)
        let later = Tool.json(Tool.run(["state", "--log", s.log, "--user", "dora", "--at", "2026-02-07T12:00:00Z", "--format", "json"]).out) as! [String: Any]
        #expect(later["planState"] as? String == "free")
    }

    @Test func everyQueryCommandAnswersInEveryFormat() {
        let s = Self.handzLog()
        let at = ["--at", "2026-02-06T12:00:00Z"]
        for command in [["state", "--user", "alice"], ["history", "--user", "carol"], ["counts"], ["funnel"], ["notifications"], ["revenue"]] {
            for format in ["table", "json", "csv"] {
                let r = Tool.run(command + ["--log", s.log, "--format", format] + at)
                #expect(r.status == 0, "\(command) \(format): \(r.err)")
                #expect(!r.out.isEmpty)
                if format == "json" { _ = Tool.json(r.out) }
            }
        }
    }

    @Test func countsFunnelAndNotificationsHaveTheContractShapes() {
        let s = Self.handzLog()
        let counts = Tool.json(Tool.run(["counts", "--log", s.log, "--format", "json"]).out) as! [String: Int]
        #expect(counts["trial_started"] == 3 && counts["subscription_started"] == 5 && counts["renewal"] == 4)
        #expect(counts["trial_converted"] == 1 && counts["refund"] == 1 && counts["billing_issue"] == 2 && counts["paywall_viewed"] == 4)
        let funnel = Tool.json(Tool.run(["funnel", "--log", s.log, "--format", "json"]).out) as! [String: Any]
        let steps = funnel["steps"] as! [[String: Any]]
        #expect(steps.map { $0["name"] as! String } == ["paywall_viewed", "paywall_cta_tapped", "purchase_started", "purchase_success"])
        #expect(steps.map { $0["users"] as! Int } == [4, 4, 4, 3])
        let trial = funnel["trial"] as! [String: Any]
        #expect(trial["started"] as? Int == 3 && trial["converted"] as? Int == 1)
        let schedule = Tool.json(Tool.run(["notifications", "--log", s.log, "--at", "2026-02-06T12:00:00Z", "--format", "json"]).out) as! [[String: Any]]
        let hank = schedule.first { $0["user"] as? String == "hank" }!
        #expect(hank["kind"] as? String == "trial_ending" && hank["status"] as? String == "scheduled")
        #expect(hank["fireAt"] as? String == "2026-02-08T19:01:00Z" && hank["channels"] as? [String] == ["in_app"])
        #expect(hank["deepLink"] as? String == "handz://paywall?context=trialEnding")
        let dora = schedule.first { $0["user"] as? String == "dora" }!
        #expect(dora["kind"] as? String == "payment_failed" && dora["status"] as? String == "due" && dora["channels"] as? [String] == ["push", "in_app"])
    }

    /// The schedule printed as a table aligns columns by characters (a user id with an accent is
    /// one character wider per letter, not per byte), and as CSV quotes a cell holding a comma or a quote.
    @Test func tablesAlignByCharactersAndCSVQuotesCommasAndQuotes() throws {
        let s = Scratch()
        let users = ["zoë", #"o"neil,jr"#, "al"]
        let lines = users.enumerated().map { i, u in
            let quoted = u.split(separator: "\"", omittingEmptySubsequences: false).joined(separator: "\\\"")
            return #"{"id":"t\#(i)","type":"purchase","user":"\#(quoted)","time":"2026-02-01T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"tx\#(i)","expires":"2026-02-08T10:00:00Z","offer":"free_trial","price":"0","currency":"USD"}}"#
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: s.path + "/in.jsonl", atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, s.path + "/in.jsonl"]).status == 0)
        let table = Tool.run(["notifications", "--log", s.log, "--at", "2026-02-06T12:00:00Z"]).out.split(separator: "\n").map(String.init)
        #expect(table.count == 4, "\(table)")
        // Every line's `kind` column starts at the same character (not byte) offset as the header's.
        let kindAt = table[0].distance(from: table[0].startIndex, to: table[0].range(of: "kind")!.lowerBound)
        for line in table.dropFirst() {
            #expect(line.distance(from: line.startIndex, to: line.range(of: "trial_ending")!.lowerBound) == kindAt, "\(table)")
        }
        let csv = Tool.run(["notifications", "--log", s.log, "--at", "2026-02-06T12:00:00Z", "--format", "csv"]).out
        #expect(csv.contains(#","o""neil,jr",trial_ending,"#) && csv.contains(",zoë,trial_ending,"), "\(csv)")
        let json = Tool.json(Tool.run(["notifications", "--log", s.log, "--at", "2026-02-06T12:00:00Z", "--format", "json"]).out) as? [[String: Any]]
        #expect(Set(json?.compactMap { $0["user"] as? String } ?? []) == Set(users))
        #expect(Tool.run(["notifications", "--log", s.log, "--at", "2026-01-01T00:00:00Z", "--format", "json"]).out == "[]\n")
    }

    @Test func historyExplainsEachEventMarksLateOnesAndShowsWhatWasKnownThen() throws {
        let s = Scratch()
        let lines = try String(contentsOfFile: Tool.packageRoot + "/events/handz.jsonl", encoding: .utf8).split(separator: "\n")
        let carol = lines.filter { $0.contains("\"carol\"") }
        try carol.prefix(2).joined(separator: "\n").write(toFile: s.path + "/early.jsonl", atomically: true, encoding: .utf8)
        try carol.dropFirst(2).joined(separator: "\n").write(toFile: s.path + "/later.jsonl", atomically: true, encoding: .utf8)
        Tool.run(["import", "--log", s.log, s.path + "/early.jsonl"], now: "2026-02-03T09:00:00Z")
        Tool.run(["import", "--log", s.log, s.path + "/later.jsonl"], now: "2026-02-05T09:00:00Z")
        let full = Tool.json(Tool.run(["history", "--log", s.log, "--user", "carol", "--format", "json"]).out) as! [[String: Any]]
        let events = full.filter { $0["kind"] as? String == "event" }
        #expect(events.map { $0["id"] as! String } == ["hz-020", "hz-021", "hz-022", "hz-023", "hz-024-client"])
        #expect(events.map { $0["late"] as! Bool } == [false, true, false, false, false])
        #expect(events.map { $0["rule"] as! String } == ["CH25 L736", "RENEWAL", "SK-D01", "SK-D01 recovered", "SAME-TRANSACTION"])
        let known = Tool.json(Tool.run(["history", "--log", s.log, "--user", "carol", "--as-known-at", "2026-02-04T00:00:00Z", "--format", "json"]).out) as! [[String: Any]]
        #expect(known.filter { $0["kind"] as? String == "event" }.map { $0["id"] as! String } == ["hz-020", "hz-022"])
        #expect(known.last?["kind"] as? String == "timer")
    }

    @Test func stateAndHistoryOfATransferRecipientShowTheSubscriptionTheyReceived() {
        let s = Scratch()
        Tool.run(["import", "--log", s.log, "--profile", "sportstime", "events/sportstime.jsonl"])
        let ask = ["--log", s.log, "--profile", "sportstime", "--user", "rosa-new-account", "--format", "json"]
        let state = Tool.json(Tool.run(["state"] + ask + ["--at", "2026-01-20T00:00:00Z"]).out) as! [String: Any]
        #expect(state["planState"] as? String == "pro" && state["product"] as? String == "com.sportstime.pro.monthly")
        #expect((state["rule"] as? [String: Any])?["id"] as? String == "TRANSFER-IN")
        let before = Tool.json(Tool.run(["state"] + ask + ["--at", "2026-01-18T11:59:59Z"]).out) as! [String: Any]
        #expect(before["planState"] as? String == "guest")
        let history = Tool.json(Tool.run(["history"] + ask + ["--at", "2026-01-20T00:00:00Z"]).out) as! [[String: Any]]
        #expect(history.count == 1)
        #expect(history.first?["kind"] as? String == "transfer_in" && history.first?["from"] as? String == "rosa")
        #expect(history.first?["id"] as? String == "st-011" && history.first?["position"] as? Int == 5 && history.first?["planState"] as? String == "pro")
        let revenue = Tool.json(Tool.run(["revenue", "--log", s.log, "--profile", "sportstime", "--at", "2026-01-20T00:00:00Z", "--format", "json"]).out) as! [String: Any]
        let sender = Tool.json(Tool.run(["state", "--log", s.log, "--profile", "sportstime", "--user", "rosa", "--at", "2026-01-20T00:00:00Z", "--format", "json"]).out) as! [String: Any]
        // pia's, uma's and the one rosa gave away; quinn's family-shared access is not a subscription of the books.
        #expect(sender["planState"] as? String == "free" && revenue["activeSubscriptions"] as? Int == 2, "\(revenue)")
    }

    @Test func diffListsTheUsersABillingGraceChangeAffects() throws {
        let s = Self.handzLog()
        let seven = Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
        try seven.write(toFile: s.path + "/grace7.json", atomically: true, encoding: .utf8)
        let r = Tool.run(["diff", "--log", s.log, "--profile", "handz", "--profile", s.path + "/grace7.json", "--at", "2026-02-07T13:00:00Z", "--format", "json"])
        #expect(r.status == 0, "\(r.err)")
        let diffs = Tool.json(r.out) as! [[String: Any]]
        #expect(diffs.map { $0["user"] as! String } == ["dora"])
        #expect((diffs[0]["a"] as! [String: Any])["planState"] as? String == "free")
        #expect((diffs[0]["b"] as! [String: Any])["planState"] as? String == "pro_grace")
    }

    @Test func revenueGivesGrossRefundedNetAndActiveCounts() {
        let s = Self.handzLog()
        let r = Tool.json(Tool.run(["revenue", "--log", s.log, "--at", "2026-02-06T12:00:00Z", "--format", "json"]).out) as! [String: Any]
        let usd = (r["currencies"] as! [[String: Any]])[0]
        // charged: alice 9.99, carol 3×9.99, dora 9.99, erin 9.99, frank 2×9.99, gina 9.99 = 9 × 9.99
        #expect(usd["gross"] as? String == "89.91" && usd["refunded"] as? String == "9.99")
        #expect(usd["net"] as? String == "67.932")
        #expect(r["activeSubscriptions"] as? Int == 5 && r["activeTrials"] as? Int == 1)
    }
}

@Suite struct LogChecksAndExitCodes {
    @Test func verifyNamesDamageBySegmentOffsetAndPosition() throws {
        let s = Queries.handzLog()
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
        let segment = try Self.lastSegment(s.log)
        var bytes = [UInt8](FileManager.default.contents(atPath: segment)!)
        bytes[bytes.count / 2] ^= 0x01
        _ = FileManager.default.createFile(atPath: segment, contents: Data(bytes))
        let r = Tool.run(["verify", "--log", s.log])
        #expect(r.status == 1)
        #expect(r.err.contains(segment + "@") && r.err.contains("(position "))
        // Damage inside the only batch: no committed record, and the records of the batch checked before it are named.
        let damagedAt = Int(r.err.split(separator: "(position ").last!.prefix { $0.isNumber })!
        let one = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as? [String: Any]
        #expect(one?["records"] as? Int == 0 && one?["checkedPosition"] as? Int == damagedAt - 1 && damagedAt > 1)
        #expect(r.out.contains("checked:   positions 1…\(damagedAt - 1) whole") && r.out.contains("records:   0 (no committed batch)"), "\(r.out)")
        // The committed records checked before damage are counted: here the handz batch, whole, then damage in the next one.
        let two = Queries.handzLog()
        Tool.run(["import", "--log", two.log, Queries.moreHandz(two)])
        let last = try Self.lastSegment(two.log)
        var both = [UInt8](FileManager.default.contents(atPath: last)!)
        both[both.count - 30] ^= 0x01
        _ = FileManager.default.createFile(atPath: last, contents: Data(both))
        let json = Tool.json(Tool.run(["verify", "--log", two.log, "--format", "json"]).out) as? [String: Any]
        #expect(json?["records"] as? Int == 43 && json?["intact"] as? Bool == false)
        // An import adopts index files that cover the damaged records without reading them (only
        // the records after their head are scanned); without them it scans and names the damage.
        try? FileManager.default.removeItem(atPath: s.log + "/indexes")
        #expect(Tool.run(["import", "--log", s.log, Queries.moreHandz(s)]).status == 1)
    }

    /// The last segment file of the log at `log`.
    static func lastSegment(_ log: String) throws -> String {
        log + "/segments/" + (try FileManager.default.contentsOfDirectory(atPath: log + "/segments").filter { $0.hasSuffix(".seg") }.sorted().last!)
    }

    @Test func aTornTailIsCutOnTheNextImportAndTheLogGoesOn() throws {
        let s = Queries.handzLog()
        // A crash during the second import, before its checkpoint: the checkpoint still names record 43.
        let checkpoint = FileManager.default.contents(atPath: s.log + "/segments/committed-head")!
        Tool.run(["import", "--log", s.log, Queries.moreHandz(s)])
        let segment = try Self.lastSegment(s.log)
        let bytes = [UInt8](FileManager.default.contents(atPath: segment)!)
        _ = FileManager.default.createFile(atPath: segment, contents: Data(bytes.dropLast(40)))
        _ = FileManager.default.createFile(atPath: s.log + "/segments/committed-head", contents: checkpoint)
        // The second import was one atomic batch: cut, it is gone whole; the first stays whole.
        let verify = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as! [String: Any]
        #expect(verify["intact"] as? Bool == true && verify["records"] as? Int == 43 && verify["tail"] is String)
        #expect(verify["committedPosition"] as? Int == 43)
        let r = Tool.run(["import", "--log", s.log, Queries.moreHandz(s)])
        #expect(r.status == 0 && r.err.contains("recovered the log"))
        #expect(r.out == "appended 4, duplicates 0, rejected 0\n")
        #expect(Tool.run(["verify", "--log", s.log]).status == 0)
    }

    @Test func committedRecordsCutAtARecordBoundaryAreNamedAsLost() throws {
        let s = Queries.handzLog()
        let before = try Self.lastSegment(s.log)
        let short = FileManager.default.contents(atPath: before)!
        Tool.run(["import", "--log", s.log, Queries.moreHandz(s)])
        // The segment as it was before the committed second import: whole frames, 4 committed records gone.
        _ = FileManager.default.createFile(atPath: before, contents: short)
        let r = Tool.run(["verify", "--log", s.log])
        #expect(r.status == 1 && r.err.contains("committed records were lost") && r.err.contains("position 47 was committed"))
        let json = Tool.json(Tool.run(["verify", "--log", s.log, "--format", "json"]).out) as? [String: Any]
        #expect(json?["records"] as? Int == 43 && json?["tail"] is NSNull, "what follows is never called a tail to cut")
        #expect(Tool.run(["counts", "--log", s.log]).status == 1)
        #expect(Tool.run(["import", "--log", s.log, Queries.moreHandz(s)]).status == 1)
        #expect(FileManager.default.contents(atPath: before) == short, "lost records are reported, never papered over")
    }

    @Test func usageErrorsExitTwoWithOneLine() {
        for args in [["nonsense"], ["state", "--log", "x"], ["state", "--user", "u", "--at", "last week"], ["counts", "--bogus"],
                     ["counts", "--format", "xml"], ["import"], ["diff", "--profile", "handz"], ["state", "--user", "u", "--profile", "nope"]] {
            let r = Tool.run(args)
            #expect(r.status == 2, "\(args): \(r.err)")
            #expect(r.err.split(separator: "\n").count == 1, "\(args)")
        }
        #expect(Tool.run([]).status == 2)
    }

    @Test func aBadProfileFileIsNamedWithItsFieldAndExitsOne() throws {
        let s = Queries.handzLog()
        let path = s.path + "/bad-profile.json"
        try Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"trialDays\" : 7", with: "\"trialDays\" : -1")
            .write(toFile: path, atomically: true, encoding: .utf8)
        let r = Tool.run(["state", "--log", s.log, "--user", "alice", "--profile", path])
        #expect(r.status == 1)
        #expect(r.err == "replay-tool state: \(path): trialDays: -1 is out of range (accepted: 0 to 3650)\n")
    }

    @Test func helpExistsForTheToolAndEveryCommand() {
        let top = Tool.run(["--help"])
        #expect(top.status == 0)
        for c in ["import", "export", "state", "history", "counts", "funnel", "notifications", "verify", "diff", "revenue", "generate", "demo", "profiles"] {
            #expect(top.out.contains("  \(c) "), "\(c)")
            let r = Tool.run([c, "--help"])
            #expect(r.status == 0 && r.out.hasPrefix("usage: replay-tool \(c)"), "\(c)")
        }
    }

    @Test func generateIsDeterministicForASeed() {
        let a = Tool.run(["generate", "--users", "50", "--seed", "3"]).out
        #expect(a == Tool.run(["generate", "--users", "50", "--seed", "3"]).out)
        #expect(a != Tool.run(["generate", "--users", "50", "--seed", "4"]).out)
        #expect(a.split(separator: "\n").count > 150)
    }

    @Test func demoRunsOnTheSampleLogs() {
        let r = Tool.run(["demo"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("\"planState\":\"pro_grace\"") && r.out.contains("intact:    yes"))
        #expect(!r.out.contains("no app profile is named"), "every sample is named after its profile")
    }

    @Test func demoSaysWhichSampleIsImportedUnderHandzForWantOfAProfile() throws {
        let dir = FileManager.default.temporaryDirectory.path + "/demo-events-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: "events/tomo.jsonl", toPath: dir + "/mytomo.jsonl")
        let r = Tool.run(["demo", "--events", dir])
        #expect(r.out.contains("(no app profile is named 'mytomo': mytomo.jsonl is imported under handz)"), "\(r.out)")
    }

    @Test func profilesListsTheFiveAndShowsOne() {
        #expect(Tool.json(Tool.run(["profiles", "--format", "json"]).out) as? [String] == ["handz", "mirrormate", "tomo", "howru", "sportstime"])
        let howru = Tool.json(Tool.run(["profiles", "show", "howru"]).out) as! [String: Any]
        #expect((howru["products"] as! [Any]).count == 7)
    }
}

/// A paused subscription through the binary: imported as canonical events and as RevenueCat
/// webhooks, then asked `state`, `history`, `export` and `counts`.
@Suite struct PauseEndToEnd {
    static let story = [
        #"{"id":"pz-1","type":"purchase","user":"pat","time":"2026-01-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"pt-1","expires":"2026-02-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
        #"{"id":"pz-2","type":"pause","user":"pat","time":"2026-01-10T00:00:00Z","data":{"resumesAt":"2026-03-01T00:00:00Z"},"source":"store"}"#,
        #"{"id":"pz-3","type":"renewal","user":"pat","time":"2026-03-01T00:00:00Z","data":{"product":"handz.pro.monthly","transaction":"pt-2","expires":"2026-04-01T00:00:00Z","price":"9.99","currency":"USD"}}"#,
    ]

    static func state(_ s: Scratch, _ at: String) -> [String: Any] {
        Tool.json(Tool.run(["state", "--log", s.log, "--user", "pat", "--at", at, "--format", "json"]).out) as! [String: Any]
    }

    static func rule(_ o: [String: Any]) -> String? { (o["rule"] as? [String: Any])?["id"] as? String }

    @Test func aPausedUserKeepsAccessToExpiresThenIsFreeWithNoGraceUntilTheRenewal() throws {
        let s = Scratch()
        let file = s.path + "/pause.jsonl"
        try Self.story.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = Tool.run(["import", "--log", s.log, file])
        #expect(imported.status == 0 && imported.out == "appended 3, duplicates 0, rejected 0\n", "\(imported.err)")

        let before = Self.state(s, "2026-01-31T23:00:00Z")
        #expect(before["planState"] as? String == "pro" && before["autoRenew"] as? Bool == false && Self.rule(before) == "PAUSE")
        let after = Self.state(s, "2026-02-01T01:00:00Z")
        #expect(after["planState"] as? String == "free" && after["graceReason"] is NSNull && after["graceEndsAt"] is NSNull)
        #expect(after["entitlements"] as? [String] == [] && after["autoRenew"] as? Bool == false && Self.rule(after) == "PAUSE ended")
        let resumed = Self.state(s, "2026-03-02T00:00:00Z")
        #expect(resumed["planState"] as? String == "pro" && resumed["autoRenew"] as? Bool == true && Self.rule(resumed) == "LATE-RENEWAL")
        #expect(resumed["expiresAt"] as? String == "2026-04-01T00:00:00Z")

        let history = Tool.json(Tool.run(["history", "--log", s.log, "--user", "pat", "--at", "2026-03-02T00:00:00Z", "--format", "json"]).out) as! [[String: Any]]
        #expect(history.map { $0["kind"] as! String } == ["event", "event", "timer", "event"])
        #expect(history.map { $0["rule"] as! String } == ["CH25 L736", "PAUSE", "PAUSE ended", "LATE-RENEWAL"])
        #expect(history.map { $0["planState"] as! String } == ["pro", "pro", "free", "pro"])
        #expect(history[2]["time"] as? String == "2026-02-01T00:00:00Z" && history[2]["graceReason"] is NSNull)
        let table = Tool.run(["history", "--log", s.log, "--user", "pat", "--at", "2026-03-02T00:00:00Z"])
        #expect(table.status == 0 && table.out.contains("pause") && !table.out.contains("SK-D04"))
        #expect(table.out.contains("a paused subscription ends at expires with no unverified grace: Free until a renewal resumes it"))

        let export = Tool.run(["export", "--log", s.log]).out.split(separator: "\n")
        #expect(export.count == 3 && export[1].hasPrefix(#"{"id":"pz-2","type":"pause","user":"pat","time":"2026-01-10T00:00:00Z","data":{"resumesAt":"2026-03-01T00:00:00Z"},"source":"store","position":2,"#))
        // Pauses are not a metric: the counts keep the contract's keys.
        let counts = Tool.json(Tool.run(["counts", "--log", s.log, "--at", "2026-03-02T00:00:00Z", "--format", "json"]).out) as! [String: Int]
        #expect(counts["pause"] == nil && counts.count == 17 && counts["subscription_started"] == 1 && counts["renewal"] == 1)
        // Past expires a paused user is neither active nor in MRR, and counts as churned until the renewal.
        func revenue(_ at: String) -> [String: Any] {
            Tool.json(Tool.run(["revenue", "--log", s.log, "--at", at, "--format", "json"]).out) as! [String: Any]
        }
        let paused = revenue("2026-02-15T00:00:00Z"), renewed = revenue("2026-03-02T00:00:00Z")
        #expect(paused["activeSubscriptions"] as? Int == 0 && paused["churnedSubscribers"] as? Int == 1)
        #expect(renewed["activeSubscriptions"] as? Int == 1 && renewed["churnedSubscribers"] as? Int == 0)
    }

    @Test func revenueCatPausedExpiredAndRenewedWebhooksTellTheSameStory() throws {
        let s = Scratch()
        func webhook(_ type: String, _ id: String, at ms: Int64, _ extra: [String: Any] = [:]) -> String {
            var e: [String: Any] = ["id": id, "type": type, "app_user_id": "pat", "event_timestamp_ms": ms, "environment": "PRODUCTION", "store": "PLAY_STORE",
                                    "product_id": "handz.pro.monthly", "transaction_id": "pt-1", "purchased_at_ms": ms,
                                    "expiration_at_ms": 1_769_904_000_000, "price": 9.99, "currency": "USD"]   // expires 2026-02-01T00:00:00Z
            e.merge(extra) { $1 }
            return String(decoding: try! JSONSerialization.data(withJSONObject: ["api_version": "1.0", "event": e], options: [.sortedKeys]), as: UTF8.self)
        }
        let lines = [
            webhook("INITIAL_PURCHASE", "rc-1", at: 1_767_225_600_000),                                                   // 2026-01-01
            webhook("SUBSCRIPTION_PAUSED", "rc-2", at: 1_768_003_200_000, ["auto_resume_at_ms": 1_772_323_200_000]),      // 2026-01-10, resumes 2026-03-01
            webhook("EXPIRATION", "rc-3", at: 1_769_904_060_000, ["expiration_reason": "SUBSCRIPTION_PAUSED"]),            // 2026-02-01T00:01
            webhook("RENEWAL", "rc-4", at: 1_772_323_200_000, ["transaction_id": "pt-2", "expiration_at_ms": 1_775_001_600_000]),  // 2026-03-01, to 2026-04-01
        ]
        let file = s.path + "/rc.jsonl"
        try lines.joined(separator: "\n").write(toFile: file, atomically: true, encoding: .utf8)
        let imported = Tool.run(["import", "--log", s.log, "--from", "revenuecat", file])
        #expect(imported.status == 0 && imported.out == "appended 4, duplicates 0, rejected 0, skipped 0\n", "\(imported.err)")
        let pause = Tool.run(["export", "--log", s.log]).out.split(separator: "\n")[1]
        #expect(pause.contains(#""type":"pause""#) && pause.contains(#""data":{"environment":"production","resumesAt":"2026-03-01T00:00:00Z"}"#))
        #expect(Self.rule(Self.state(s, "2026-01-31T23:00:00Z")) == "PAUSE")
        let after = Self.state(s, "2026-02-01T01:00:00Z")
        #expect(after["planState"] as? String == "free" && after["graceReason"] is NSNull && Self.rule(after) == "EXPIRATION")
        #expect(Self.state(s, "2026-03-02T00:00:00Z")["planState"] as? String == "pro")
        let history = Tool.json(Tool.run(["history", "--log", s.log, "--user", "pat", "--at", "2026-03-02T00:00:00Z", "--format", "json"]).out) as! [[String: Any]]
        #expect(history.map { $0["rule"] as! String } == ["CH25 L736", "PAUSE", "EXPIRATION", "LATE-RENEWAL"])
    }
}
