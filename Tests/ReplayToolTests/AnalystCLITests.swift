import Foundation
import Testing
import TestKit

/// What an analyst types and reads: instants relative to the tool's clock, quarter and year
/// series, money rounded for people and exact for scripts, JSON Lines, the state CSV, `--version`
/// and "did you mean". Every check runs the built binary.
@Suite struct AnalystCLI {
    static let now = "2026-02-06T12:00:00Z"

    static func handz(_ s: Scratch) -> String {
        #expect(Tool.run(["import", "--log", s.log, Tool.packageRoot + "/events/handz.jsonl"]).status == 0)
        return s.log
    }

    static func object(_ r: ToolRun) -> [String: Any] { (Tool.json(r.out) as? [String: Any]) ?? [:] }

    @Test func relativeInstantsAreReadAgainstTheToolsClock() throws {
        let s = Scratch()
        let log = Self.handz(s)
        // Each form, on --at, names the instant it stands for (state echoes it as asOf).
        let forms = ["now": Self.now, "today": "2026-02-06T00:00:00Z", "yesterday": "2026-02-05T00:00:00Z",
                     "tomorrow": "2026-02-07T00:00:00Z", "-7d": "2026-01-30T12:00:00Z", "-12h": "2026-02-06T00:00:00Z",
                     "+30m": "2026-02-06T12:30:00Z", "-2w": "2026-01-23T12:00:00Z", "-90s": "2026-02-06T11:58:30Z"]
        for (form, instant) in forms {
            let r = Tool.run(["state", "--log", log, "--user", "dora", "--at", form, "--format", "json"])
            #expect(r.status == 0, "\(form): \(r.err)")
            #expect(Self.object(r)["asOf"] as? String == instant, "\(form): \(r.out)")
        }
        // On --from/--to and --as-known-at the answer is the one for the written-out instant.
        let relative = Tool.run(["counts", "--log", log, "--from", "-30d", "--to", "yesterday", "--format", "json"])
        let written = Tool.run(["counts", "--log", log, "--from", "2026-01-07T12:00:00Z", "--to", "2026-02-05T00:00:00Z", "--format", "json"])
        #expect(relative.status == 0 && relative.out == written.out, "\(relative.err)")
        #expect((Self.object(relative)["paywall_viewed"] as? Int ?? 0) > 0)
        let known = Tool.run(["history", "--log", log, "--user", "carol", "--as-known-at", "-1d", "--format", "json"])
        let knownWritten = Tool.run(["history", "--log", log, "--user", "carol", "--as-known-at", "2026-02-05T12:00:00Z", "--format", "json"])
        #expect(known.status == 0 && known.out == knownWritten.out)
        // A different clock, a different answer: the forms are not fixed dates.
        let later = Tool.run(["state", "--log", log, "--user", "dora", "--at", "today", "--format", "json"], now: "2026-03-01T08:00:00Z")
        #expect(Self.object(later)["asOf"] as? String == "2026-03-01T00:00:00Z")
        // Not a form, or out of the accepted range: a usage error naming the flag and the forms.
        for bad in ["7d", "-7y", "-d", "--7d", "-1234567890d", "Today", "-1.5d"] {
            let r = Tool.run(["counts", "--log", log, "--at", bad])
            #expect(r.status == 2, "\(bad): \(r.out)")
            #expect(r.err.contains("--at '\(bad)'") && r.err.split(separator: "\n").count == 1, "\(bad): \(r.err)")
        }
        #expect(Tool.run(["counts", "--log", log, "--at", "-999999w"]).err.contains("out of range"))
        #expect(Tool.run(["counts", "--log", log, "--at", "+9999w"]).status == 2)
    }

    @Test func quarterAndYearSeriesStartOnTheirCalendarBoundariesAndSumToTheWindow() throws {
        let s = Scratch()
        let log = Report.population(s, users: 120)
        let (from, to) = ("2025-11-15T00:00:00Z", "2026-03-01T00:00:00Z")
        let plain = Self.object(Tool.run(["counts", "--log", log, "--from", from, "--to", to, "--format", "json"]))
        #expect((plain["paywall_viewed"] as? Int ?? 0) > 0)
        for (by, starts) in [("quarter", ["2025-11-15T00:00:00Z", "2026-01-01T00:00:00Z"]), ("year", ["2025-11-15T00:00:00Z", "2026-01-01T00:00:00Z"]),
                             ("month", ["2025-11-15T00:00:00Z", "2025-12-01T00:00:00Z", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z"])] {
            let r = Tool.run(["counts", "--log", log, "--by", by, "--from", from, "--to", to, "--format", "json"])
            #expect(r.status == 0, "\(by): \(r.err)")
            let json = Self.object(r)
            #expect(json["by"] as? String == by)
            let buckets = json["buckets"] as? [[String: Any]] ?? []
            #expect(buckets.map { $0["start"] as? String ?? "" } == starts, "\(by)")
            // Each metric summed over the buckets is the plain report's over the window.
            for (name, total) in plain {
                #expect(buckets.reduce(0) { $0 + ($1[name] as? Int ?? 0) } == total as? Int, "\(by) \(name)")
            }
        }
        // A quarter begins in January, April, July or October; a year in January.
        let long = Self.object(Tool.run(["revenue", "--log", log, "--by", "quarter", "--from", "2024-02-10T00:00:00Z", "--to", to, "--format", "json"]))
        let quarterStarts = (long["buckets"] as? [[String: Any]] ?? []).dropFirst().map { String(($0["start"] as? String ?? "").prefix(10)) }
        #expect(quarterStarts == ["2024-04-01", "2024-07-01", "2024-10-01", "2025-01-01", "2025-04-01", "2025-07-01", "2025-10-01", "2026-01-01"])
        for command in ["funnel", "revenue"] {
            let r = Tool.run([command, "--log", log, "--by", "year", "--from", "2024-06-01T00:00:00Z", "--to", to, "--format", "json"])
            #expect((Self.object(r)["buckets"] as? [[String: Any]])?.map { $0["start"] as? String } == ["2024-06-01T00:00:00Z", "2025-01-01T00:00:00Z", "2026-01-01T00:00:00Z"], "\(command): \(r.err)")
        }
        let usage = Tool.run(["counts", "--log", log, "--by", "decade"])
        #expect(usage.status == 2 && usage.err.contains("day, week, month, quarter, year"), "\(usage.err)")
    }

    /// One purchase in each of three currencies whose minor units differ (JPY 0, USD 2, KWD 3).
    static func threeCurrencies(_ s: Scratch) throws -> String {
        let file = s.path + "/money.jsonl"
        func purchase(_ user: String, _ price: String, _ currency: String) -> String {
            #"{"id":"\#(user)-1","type":"purchase","user":"\#(user)","time":"2026-01-10T10:00:00Z","data":{"product":"handz.pro.monthly","transaction":"\#(user)-t1","expires":"2026-02-10T10:00:00Z","price":"\#(price)","currency":"\#(currency)"},"source":"store"}"#
        }
        try [purchase("yen", "999", "JPY"), purchase("usd", "79.92", "USD"), purchase("kwd", "1.2345", "KWD")].joined(separator: "\n")
            .appending("\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(Tool.run(["import", "--log", s.log, file]).status == 0)
        return s.log
    }

    @Test func tablesRoundMoneyToTheCurrencysMinorUnitWhileJSONAndCSVKeepItExact() throws {
        let s = Scratch()
        let log = try Self.threeCurrencies(s)
        // Net is 85 % of gross under handz: 849.15 JPY, 67.932 USD, 1.049325 KWD.
        let json = Self.object(Tool.run(["revenue", "--log", log, "--format", "json"]))
        let lines = Dictionary(uniqueKeysWithValues: (json["currencies"] as? [[String: Any]] ?? []).map { ($0["currency"] as? String ?? "", $0) })
        #expect(lines["JPY"]?["net"] as? String == "849.15" && lines["USD"]?["net"] as? String == "67.932" && lines["KWD"]?["net"] as? String == "1.049325")
        #expect(lines["JPY"]?["gross"] as? String == "999.00" && lines["KWD"]?["gross"] as? String == "1.2345")
        let table = Tool.run(["revenue", "--log", log]).out
        let rows = Dictionary(uniqueKeysWithValues: table.split(separator: "\n").dropFirst().map { $0.split(separator: " ").map(String.init) }
            .filter { $0.count == 5 }.map { ($0[0], Array($0.dropFirst())) })
        #expect(rows["JPY"] == ["999", "0", "849", "999"], "\(table)")
        #expect(rows["USD"] == ["79.92", "0.00", "67.93", "79.92"], "\(table)")
        #expect(rows["KWD"] == ["1.235", "0.000", "1.049", "1.235"], "\(table)")
        let csv = Tool.run(["revenue", "--log", log, "--format", "csv"]).out
        #expect(csv.contains("JPY,999.00,0.00,849.15,999.00") && csv.contains("USD,79.92,0.00,67.932,79.92") && csv.contains("KWD,1.2345,0.00,1.049325,1.2345"), "\(csv)")
        // The series table rounds the same way; its CSV stays exact.
        let series = Tool.run(["revenue", "--log", log, "--by", "month", "--from", "2026-01-01T00:00:00Z"]).out
        #expect(series.contains(" JPY ") && series.contains(" 849 ") && series.contains(" 67.93 ") && !series.contains("67.932"), "\(series)")
        #expect(Tool.run(["revenue", "--log", log, "--by", "month", "--from", "2026-01-01T00:00:00Z", "--format", "csv"]).out.contains(",67.932,"))
    }

    @Test func jsonLinesPrintOneObjectALineForListsAndSeries() throws {
        let s = Scratch()
        let log = Self.handz(s)
        let grace7 = s.path + "/grace7.json"
        try Tool.run(["profiles", "show", "handz"]).out.replacingOccurrences(of: "\"billingGraceDays\" : 3", with: "\"billingGraceDays\" : 7")
            .write(toFile: grace7, atomically: true, encoding: .utf8)
        // A list: the JSON array's elements, in order, one a line (the same bytes as the array holds).
        for args in [["notifications"], ["history", "--user", "carol"], ["diff", "--profile", "handz", "--profile", grace7, "--at", "2026-02-07T13:00:00Z"]] {
            let array = Tool.run(args + ["--log", log, "--format", "json"])
            let r = Tool.run(args + ["--log", log, "--format", "jsonl"])
            #expect(r.status == 0 && array.status == 0, "\(args): \(r.err)")
            let lines = r.out.split(separator: "\n").map(String.init)
            #expect(lines.count >= (args[0] == "diff" ? 1 : 3), "\(args)")
            #expect("[" + lines.joined(separator: ",") + "]\n" == array.out, "\(args): \(r.out)")
            #expect(lines.allSatisfy { Tool.json($0) is [String: Any] })
        }
        // A series: its buckets, one a line.
        for command in ["counts", "revenue", "funnel"] {
            let args = [command, "--log", log, "--by", "week", "--from", "2026-01-01T00:00:00Z"]
            let json = Tool.run(args + ["--format", "json"]).out
            let lines = Tool.run(args + ["--format", "jsonl"]).out.split(separator: "\n").map(String.init)
            #expect(lines.count == 6 && (Self.object(Tool.run(args + ["--format", "json"]))["buckets"] as? [Any])?.count == 6, "\(command)")
            #expect(json.hasSuffix(",\"buckets\":[" + lines.joined(separator: ",") + "]}\n"), "\(command)")
        }
        // One object is not rows; a command without lists does not offer it.
        let plain = Tool.run(["counts", "--log", log, "--format", "jsonl"])
        #expect(plain.status == 2 && plain.err.contains("--by"), "\(plain.err)")
        #expect(Tool.run(["state", "--log", log, "--user", "dora", "--format", "jsonl"]).status == 2)
    }

    @Test func stateCSVHoldsTheJSONValuesWithEmptyCellsForNullsAndTheGraceReason() throws {
        let s = Scratch()
        let log = Self.handz(s)
        for (user, at) in [("dora", Self.now), ("alice", Self.now), ("nobody-here", Self.now), ("carol", "2026-02-03T09:00:00Z")] {
            let json = Self.object(Tool.run(["state", "--log", log, "--user", user, "--at", at, "--format", "json"]))
            let csv = Tool.run(["state", "--log", log, "--user", user, "--at", at, "--format", "csv"]).out.split(separator: "\n")
            #expect(csv.count == 2)
            let cells = Dictionary(uniqueKeysWithValues: zip(csv[0].split(separator: ",").map(String.init), Self.csvCells(String(csv[1]))))
            for key in ["user", "planState", "graceReason", "graceEndsAt", "product", "expiresAt", "autoRenew", "autoRenewOffAt", "trialEligible", "credits", "billingIssue", "badge", "tier", "asOf"] {
                let want: String
                switch json[key] {
                case nil, is NSNull: want = ""
                case let b as Bool where ["trialEligible", "billingIssue", "autoRenew"].contains(key): want = "\(b)"
                case let v?: want = "\(v)"
                }
                #expect(cells[key] == want, "\(user) \(key): csv '\(cells[key] ?? "missing")', json '\(want)'")
            }
            #expect(!csv[1].contains(",-,") && !csv[1].hasSuffix(",-"), "\(csv[1])")
        }
        // dora is in billing grace: the reason has its own column.
        let dora = Tool.run(["state", "--log", log, "--user", "dora", "--format", "csv"]).out
        #expect(dora.split(separator: "\n")[0].hasSuffix(",asOf,graceReason") && dora.contains(",pro_grace,") && dora.hasSuffix(",billing\n"), "\(dora)")
        // The table for people keeps its dashes and the grace reason beside the state.
        #expect(Tool.run(["state", "--log", log, "--user", "dora"]).out.contains("pro_grace (billing)"))
    }

    /// RFC 4180 cells of one line (quoted cells may hold commas and doubled quotes).
    static func csvCells(_ line: String) -> [String] {
        var cells: [String] = [], cell = "", quoted = false, chars = Array(line), i = 0
        while i < chars.count {
            let c = chars[i]
            if quoted {
                if c == "\"" { if i + 1 < chars.count && chars[i + 1] == "\"" { cell.append("\""); i += 1 } else { quoted = false } } else { cell.append(c) }
            } else if c == "\"" { quoted = true } else if c == "," { cells.append(cell); cell = "" } else { cell.append(c) }
            i += 1
        }
        return cells + [cell]
    }

    @Test func stateOfAUserTheLogNeverSawSaysSoOnStderrAndExitsZero() throws {
        let s = Scratch()
        let log = Self.handz(s)
        let unseen = Tool.run(["state", "--log", log, "--user", "nobody-here", "--format", "json"])
        #expect(unseen.status == 0 && Self.object(unseen)["planState"] as? String == "guest")
        #expect(unseen.err == "replay-tool state: the log holds no event of user 'nobody-here': answered as a new user (guest)\n", "\(unseen.err)")
        // The longest user id the log accepts is named cut, in one short line.
        let long = Tool.run(["state", "--log", log, "--user", String(repeating: "x", count: 65_535)])
        #expect(long.status == 0 && long.err.split(separator: "\n").count == 1 && long.err.utf8.count < 400 && long.err.contains("…(65335 more characters)"), "\(long.err.prefix(300))")
        // Known, but not yet as of --at: said too; known by then: nothing on stderr.
        let early = Tool.run(["state", "--log", log, "--user", "dora", "--at", "2020-01-01T00:00:00Z"])
        #expect(early.status == 0 && early.err.contains("user 'dora' has no event at or before 2020-01-01T00:00:00Z"), "\(early.err)")
        let known = Tool.run(["state", "--log", log, "--user", "dora"])
        #expect(known.status == 0 && known.err.isEmpty, "\(known.err)")
    }

    @Test func versionAndDidYouMean() throws {
        let s = Scratch()
        let log = Self.handz(s)
        let version = Tool.run(["--version"])
        #expect(version.status == 0 && version.out.range(of: #"^replay-tool \d+\.\d+\.\d+ \(log format 1, kept projection code \d+\)\n$"#, options: .regularExpression) != nil, "\(version.out)")
        // The log format named is the one verify reads in the segments' headers.
        #expect(Tool.run(["verify", "--log", log]).status == 0)
        let command = Tool.run(["stat", "--log", log])
        #expect(command.status == 2 && command.err.contains("unknown command 'stat' (did you mean 'state'?)"), "\(command.err)")
        #expect(Tool.run(["reprot"]).err.contains("did you mean 'report'?"))
        #expect(Tool.run(["verfiy"]).err.contains("did you mean 'verify'?"))
        let flag = Tool.run(["counts", "--log", log, "--fromat", "json"])
        #expect(flag.status == 2 && flag.err.contains("unknown option --fromat for 'counts' (did you mean '--format'?)"), "\(flag.err)")
        #expect(Tool.run(["counts", "--log", log, "--form", "-7d"]).err.contains("did you mean '--from'?"))
        #expect(Tool.run(["state", "--lgo", log, "--user", "dora"]).err.contains("did you mean '--log'?"))
        // Nothing near: no guess.
        let far = Tool.run(["counts", "--log", log, "--zebra", "1"])
        #expect(far.status == 2 && !far.err.contains("did you mean"), "\(far.err)")
        #expect(!Tool.run(["xyzzy"]).err.contains("did you mean"))
    }
}
