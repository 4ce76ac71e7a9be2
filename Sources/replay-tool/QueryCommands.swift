import Foundation
import Platform
import EventStore
import Projections
import SubscriptionDomain
import Ingest
import Reports

/// Commands that answer from the log: state, history, counts, funnel, notifications, diff, revenue.
enum QueryCommands {
    static let user = OptionSpec(name: "--user", value: "U", help: "the app user id")
    static let window = [OptionSpec(name: "--from", value: "TIME", help: "only events at or after this instant"),
                         OptionSpec(name: "--to", value: "TIME", help: "only events before this instant"),
                         OptionSpec(name: "--include-sandbox", value: nil, help: "count sandbox events too")]

    static func planJSON(_ v: PlanView, asOf: Timestamp) -> JSON {
        .object([
            ("user", .string(v.user)), ("planState", .string(v.planState.rawValue)), ("graceReason", .text(v.graceReason?.rawValue)),
            ("graceEndsAt", .time(v.graceEndsAt)), ("entitlements", .array(v.entitlements.map { .string($0) })),
            ("product", .text(v.product)), ("expiresAt", .time(v.expiresAt)), ("autoRenew", v.autoRenew.map { .bool($0) } ?? .null),
            ("autoRenewOffAt", .time(v.autoRenewOffAt)),
            ("trialEligible", .bool(v.trialEligible)), ("credits", .int(v.credits)), ("billingIssue", .bool(v.billingIssue)),
            ("badge", .int(v.badge)), ("tier", .string(v.tier)),
            ("limits", .object(v.limits.sorted { $0.key < $1.key }.map { ($0.key, limitJSON($0.value)) })),
            ("rule", .object([("id", .string(v.rule.id)), ("summary", .string(v.rule.summary))])), ("asOf", .time(asOf)),
        ])
    }

    static func limitJSON(_ l: FeatureLimit) -> JSON {
        switch l {
        case .count(let n): .int(n)
        case .unlimited: .string("unlimited")
        case .enabled(let b): .bool(b)
        }
    }

    /// `state --format csv`: the columns it always had, in their order, then `graceReason`; each
    /// cell the JSON's value (`planState` without the grace reason), a null as an empty cell.
    static let stateCSV: [(String, @Sendable (PlanView) -> String)] = [
        ("user", { $0.user }), ("planState", { $0.planState.rawValue }), ("graceEndsAt", { $0.graceEndsAt?.description ?? "" }),
        ("entitlements", { $0.entitlements.joined(separator: " ") }), ("product", { $0.product ?? "" }),
        ("expiresAt", { $0.expiresAt?.description ?? "" }), ("autoRenew", { $0.autoRenew.map { "\($0)" } ?? "" }),
        ("autoRenewOffAt", { $0.autoRenewOffAt?.description ?? "" }), ("trialEligible", { "\($0.trialEligible)" }),
        ("credits", { "\($0.credits)" }), ("billingIssue", { "\($0.billingIssue)" }), ("badge", { "\($0.badge)" }), ("tier", { $0.tier }),
        ("limits", { $0.limits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") }),
        ("rule", { $0.rule.description }),
    ]

    static func planLabel(_ v: PlanView) -> String {
        v.planState.rawValue + (v.graceReason.map { " (\($0.rawValue))" } ?? "")
    }

    static let state = CommandSpec(
        name: "state", summary: "the user's plan as of --at", positionals: nil, options: Common.query + [user]
    ) { a in
        guard let user = a.value("--user") else { throw ToolError.usage("state needs --user U") }
        try Common.checkUser(user)
        let format = try Common.format(a)
        let at = try Common.at(a)
        let profile = try Common.profile(a.value("--profile"))
        let decider = PlanDecider(profile: profile)
        let userLog = try Common.userLog(a, user: user)
        try Common.checkApp(profile, directory: userLog)
        let log = try Common.openLog(a, directory: userLog)
        let history = try Replay.history(log: log, user: user, options: ReplayOptions(profile: profile, asOf: at))
        let view = decider.view(history.state(decider, at: at), at: at)
        // A user the log has never seen is answered as the guest they are; stderr says so (exit 0 for scripts).
        if history.timeline.entries.isEmpty && history.transfersIn.isEmpty {
            Console.err("replay-tool state: the log holds no event of user '\(OneLine.escaped(user, limit: 200))': answered as a new user (guest)")
        } else if !history.timeline.entries.contains(where: { $0.stored.event.time <= at }) && !history.transfersIn.contains(where: { $0.stored.event.time <= at }) {
            Console.err("replay-tool state: user '\(OneLine.escaped(user, limit: 200))' has no event at or before \(at): answered as a new user (guest)")
        }
        switch format {
        case .json, .jsonl: Console.out(planJSON(view, asOf: at).rendered + "\n")
        case .csv:
            // The JSON's values, one row under the JSON's keys: a null is an empty cell.
            Console.out(TextTable(headers: stateCSV.map(\.0) + ["asOf", "graceReason"],
                                  rows: [stateCSV.map { $0.1(view) } + [at.description, view.graceReason?.rawValue ?? ""]]).csv)
        case .table:
            let rows: [[String]] = [
                ["user", view.user], ["planState", planLabel(view)], ["graceEndsAt", view.graceEndsAt?.description ?? "-"],
                ["entitlements", view.entitlements.joined(separator: " ")], ["product", view.product ?? "-"],
                ["expiresAt", view.expiresAt?.description ?? "-"], ["autoRenew", view.autoRenew.map { "\($0)" } ?? "-"],
                ["autoRenewOffAt", view.autoRenewOffAt?.description ?? "-"],
                ["trialEligible", "\(view.trialEligible)"], ["credits", "\(view.credits)"], ["billingIssue", "\(view.billingIssue)"],
                ["badge", "\(view.badge)"], ["tier", view.tier],
                ["limits", view.limits.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")],
                ["rule", view.rule.description], ["asOf", at.description],
            ]
            Console.out(TextTable(headers: ["field", "value"], rows: rows).aligned)
        }
        return 0
    }

    static let history = CommandSpec(
        name: "history", summary: "the user's events in effect order, each with the state after it and the rule that applied",
        positionals: nil,
        options: Common.rowQuery + [user, OptionSpec(name: "--as-known-at", value: "TIME", help: "only records the log had recorded by then (what the system believed)")],
        details: """
            Late events (appended after a later-timed event of the same user) are marked late. Timer lines show
            state changes without an event (trial end, grace end). A subscription another user transferred to this one
            shows as a transfer line (kind transfer_in, with the sender and the transfer's position), after the user's own events.
            """
    ) { a in
        guard let user = a.value("--user") else { throw ToolError.usage("history needs --user U") }
        try Common.checkUser(user)
        let format = try Common.rowFormat(a)
        let at = try Common.at(a)
        let profile = try Common.profile(a.value("--profile"))
        let decider = PlanDecider(profile: profile)
        let userLog = try Common.userLog(a, user: user)
        try Common.checkApp(profile, directory: userLog)
        let log = try Common.openLog(a, directory: userLog)
        let history = try Replay.history(log: log, user: user, options: ReplayOptions(profile: profile, asOf: at),
                                         knownAt: try Common.time(a, "--as-known-at"))
        var rows: [[String]] = []
        var json: [JSON] = []
        var state = decider.initial(user: user)
        func timerRows(after from: Timestamp, upTo to: Timestamp) {
            for t in decider.timers(state, after: from, upTo: to) {
                let v = decider.view(state, at: t)
                rows.append([t.description, "-", "(timer)", "-", "", planLabel(v), v.rule.id, v.rule.summary])
                json.append(.object([("kind", .string("timer")), ("time", .time(t)), ("planState", .string(v.planState.rawValue)),
                                     ("graceReason", .text(v.graceReason?.rawValue)), ("rule", .string(v.rule.id)), ("ruleSummary", .string(v.rule.summary))]))
            }
        }
        /// A row for a stored event and the state after it: one of the user's own, or a transfer to them.
        func eventRow(_ kind: String, _ stored: StoredEvent, label: String, late: Bool, from: String? = nil, view v: PlanView) {
            let e = stored.event
            rows.append([e.time.description, "\(stored.position)", label, e.id, late ? "late" : "", planLabel(v), state.rule.id, state.rule.summary])
            json.append(.object([
                ("kind", .string(kind)), ("time", .time(e.time)), ("position", .int(Int(stored.position))),
                ("recorded", .time(stored.recorded)), ("type", .string(e.type.rawValue)), ("id", .string(e.id)),
            ] + (from.map { [("from", JSON.string($0))] } ?? []) + [
                ("late", .bool(late)), ("planState", .string(v.planState.rawValue)), ("graceReason", .text(v.graceReason?.rawValue)),
                ("rule", .string(state.rule.id)), ("ruleSummary", .string(state.rule.summary)),
            ]))
        }
        var last: Timestamp?
        for entry in history.timeline.entries where entry.stored.event.time <= at {
            let e = entry.stored.event
            if let last { timerRows(after: last, upTo: e.time - .init(nanoseconds: 1)) }
            decider.evolve(&state, e)
            eventRow("event", entry.stored, label: e.type.rawValue, late: entry.isLate, view: decider.view(state, at: e.time))
            last = e.time
        }
        // Subscriptions transferred to the user are handed over after their own events, as a full replay does.
        for t in history.transfersIn {
            let time = t.stored.event.time
            if let last, time > last { timerRows(after: last, upTo: time - .init(nanoseconds: 1)) }
            guard decider.receiveTransfer(&state, t.subscription, at: time) else { continue }
            eventRow("transfer_in", t.stored, label: "transfer from \(t.from)", late: false, from: t.from,
                     view: decider.view(state, at: max(time, last ?? time)))
            last = max(last ?? time, time)
        }
        if let last { timerRows(after: last, upTo: at) }
        switch format {
        case .json: Console.out(JSON.array(json).rendered + "\n")
        case .jsonl: JSON.printLines(json) { $0 }
        case .table, .csv:
            Console.out(TextTable(headers: ["time", "position", "type", "id", "late", "state after", "rule", "why"], rows: rows).render(format))
        }
        return 0
    }

    static let counts = CommandSpec(
        name: "counts", summary: "analytics counts (production events only unless --include-sandbox)", positionals: nil,
        options: Common.rowQuery + window + [SeriesCommands.by, SegmentReports.option, Common.asKnownAt]
    ) { a in
        if let segment = try MetricsCommand.segment(a) { return try SegmentReports.run(a, .counts, segment: segment) }
        if a.has("--by") { return try SeriesCommands.counts(a) }
        let format = try Common.plainFormat(a)
        let counts = LedgerSnapshot.mergingCounts(try Common.nowReports(a, fromSummary: { s, _, _ in s.counts() },
                                                                           fromIndex: { i, q, _ in try i.counts(at: q.at, from: q.from, to: q.to) }) { $0.counts() })
        let names = LedgerSnapshot.metricNames
        switch format {
        case .json, .jsonl: Console.out(JSON.object(ReportJSON.counts(counts)).rendered + "\n")
        case .table, .csv: Console.out(TextTable(headers: ["metric", "count"], rows: names.map { [$0, "\(counts[$0] ?? 0)"] }).render(format))
        }
        return 0
    }

    static let funnel = CommandSpec(
        name: "funnel", summary: "paywall_viewed → paywall_cta_tapped → purchase_started → purchase_success, and trials started → converted",
        positionals: nil, options: Common.rowQuery + window + [SeriesCommands.by, SegmentReports.option, Common.asKnownAt]
    ) { a in
        if let segment = try MetricsCommand.segment(a) { return try SegmentReports.run(a, .funnel, segment: segment) }
        if a.has("--by") { return try SeriesCommands.funnel(a) }
        let format = try Common.plainFormat(a)
        let report = FunnelReport.merging(try Common.nowReports(a, fromSummary: { s, _, _ in s.funnel() },
                                                                        fromIndex: { i, q, _ in q.hasWindow ? try i.funnel(at: q.at, from: q.from, to: q.to) : try i.funnel(at: q.at) }) { $0.funnel() })
        switch format {
        case .json, .jsonl:
            Console.out(JSON.object(ReportJSON.funnel(report)).rendered + "\n")
        case .table, .csv:
            Console.out(TextTable(headers: funnelHeaders, rows: funnelRows(report)).render(format))
        }
        return 0
    }

    static let funnelHeaders = ["context", "step", "users", "rate"]

    /// The plain funnel's table rows: each context's steps, the trials, the weekly trial cohorts.
    static func funnelRows(_ report: FunnelReport) -> [[String]] {
        var rows: [[String]] = []
        let rate = Rates.trialConversion(started: report.trialsStarted, converted: report.trialsConverted)
        func add(_ context: String, _ steps: [FunnelReport.Step]) {
            for s in steps { rows.append([context, s.name, "\(s.users)", String(format: "%.1f%%", s.rate * 100)]) }
        }
        add("all", report.steps)
        for (c, steps) in report.byContext.sorted(by: { $0.key < $1.key }) { add(c, steps) }
        rows.append(["all", "trial_started", "\(report.trialsStarted)", "100.0%"])
        rows.append(["all", "trial_converted", "\(report.trialsConverted)", String(format: "%.1f%%", rate * 100)])
        for c in report.cohorts {
            rows.append(["week of \(c.week)", "trial_converted", "\(c.converted) of \(c.started)",
                         String(format: "%.1f%%", Rates.trialConversion(started: c.started, converted: c.converted) * 100)])
        }
        return rows
    }

    static let notifications = CommandSpec(
        name: "notifications", summary: "the notification schedule (trial_ending, payment_failed) as of --at", positionals: nil, options: Common.rowQuery + [Common.asKnownAt]
    ) { a in
        let format = try Common.rowFormat(a)
        let list = ScheduledNotification.merging(try Common.nowReports(a, notifications: true, fromSummary: { s, now, profile in
            s.notifications(at: now, profile: profile)
        }) { $0.notifications() })
        switch format {
        case .json, .jsonl:
            (format == .json ? JSON.printArray : JSON.printLines)(list) { n in .object([
                ("user", .string(n.user)), ("kind", .string(n.kind.rawValue)), ("fireAt", .time(n.fireAt)), ("deepLink", .string(n.deepLink)),
                ("copy", .string(n.copy)), ("channels", .array(n.channels.map { .string($0) })), ("status", .string(n.status.rawValue)),
            ]) }
        case .table, .csv:
            TextTable(headers: ["fireAt", "user", "kind", "status", "channels", "deepLink", "copy"],
                      rows: list.map { [$0.fireAt.description, $0.user, $0.kind.rawValue, $0.status.rawValue, $0.channels.joined(separator: "+"), $0.deepLink, $0.copy] }).print(format)
        }
        return 0
    }

    static let diff = CommandSpec(
        name: "diff", summary: "users whose state differs under two profiles (--profile A --profile B) as of --at", positionals: nil,
        options: [Common.logs, OptionSpec(name: "--profile", value: "NAME|FILE", help: "give it twice: A then B", repeatable: true), Common.rowFormatOption, Common.at]
    ) { a in
        let names = a.all("--profile")
        guard names.count == 2 else { throw ToolError.usage("diff needs --profile A --profile B") }
        let format = try Common.rowFormat(a)
        let at = try Common.at(a)
        let pa = try Common.profile(names[0]), pb = try Common.profile(names[1])
        let differences = try Common.differences(a, pa, pb, at: at)
        switch format {
        case .json, .jsonl:
            let rows = JSON.array(differences.map { d in .object([
                ("user", .string(d.user)), ("fields", .array(d.fields.map { .string($0) })),
                ("a", planJSON(d.a, asOf: at)), ("b", planJSON(d.b, asOf: at)),
            ]) })
            if format == .jsonl { rows.printLines() } else { Console.out(rows.rendered + "\n") }
        case .table, .csv:
            Console.out(TextTable(headers: ["user", "differs in", "A: \(names[0])", "B: \(names[1])"], rows: differences.map {
                [$0.user, $0.fields.joined(separator: ","), planLabel($0.a) + ($0.a.graceEndsAt.map { " until \($0)" } ?? ""),
                 planLabel($0.b) + ($0.b.graceEndsAt.map { " until \($0)" } ?? "")]
            }).render(format))
            if format == .table { Console.out("\(differences.count) user(s) differ as of \(at)\n") }
        }
        return 0
    }

    static let revenue = CommandSpec(
        name: "revenue", summary: "gross, refunded and net revenue per currency, MRR, active subscriptions and trials, churn",
        positionals: nil, options: Common.rowQuery + window + [SeriesCommands.by, SegmentReports.option, Common.asKnownAt],
        details: """
            With --from/--to: money (gross, refunded, net) and trial conversion of the window [--from, --to), MRR and the
            subscriber counts as of --to (default --at); the sum of the --by buckets over the same window. Without: the
            whole log as of --at.
            """
    ) { a in
        if let segment = try MetricsCommand.segment(a) { return try SegmentReports.run(a, .revenue, segment: segment) }
        if a.has("--by") { return try SeriesCommands.revenue(a) }
        let format = try Common.plainFormat(a)
        let r: RevenueReport
        if a.has("--from") || a.has("--to") {
            // A window: money within it, stocks at its end, as the series' buckets sum (one pass per --log).
            r = try SeriesCommands.indexedWindowRevenue(a)
                ?? RevenueReport.merging(try Common.logDirectories(a).map { try SeriesCommands.run(a, directory: $0, emptyWindow: true).windowRevenue() })
        } else {
            r = RevenueReport.merging(try Common.nowReports(a, fromSummary: { s, _, profile in s.revenue(profile: profile) },
                                                              fromIndex: { i, q, profile in try i.revenue(at: q.at, profile: profile) }) { $0.revenue() })
        }
        switch format {
        case .json, .jsonl:
            Console.out(JSON.object(ReportJSON.revenue(r)).rendered + "\n")
        case .table, .csv:
            Console.out(TextTable(headers: ["currency", "gross", "refunded", "net", "mrr"],
                                  rows: r.lines.map { l in [l.currency] + [l.gross, l.refunded, l.net, l.mrr].map { MoneyCell.text($0, l.currency, format) } }).render(format))
            if format == .table {
                Console.out(String(format: "active subscriptions %d, active trials %d, churned %d (%.1f%%), trial conversion %.1f%%\n",
                                   r.activeSubscriptions, r.activeTrials, r.churnedSubscribers, r.churnRate * 100, r.trialConversionRate * 100))
            }
        }
        return 0
    }
}
