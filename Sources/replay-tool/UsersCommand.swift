import Foundation
import Projections
import SubscriptionDomain
import Reports

/// `users --where …`: customer lists as of `--at`, from the analysts' model of each `--log`.
enum UsersCommand {
    static let whereOption = OptionSpec(name: "--where", value: "KEY=VALUE",
                                        help: "keep users whose KEY is VALUE: planState, graceReason, billingIssue, autoRenew, product, tier, trialEndsBefore (TIME), churnedSince (TIME)",
                                        repeatable: true)
    static let limit = OptionSpec(name: "--limit", value: "N", help: "at most N users (default: all)")
    static let after = OptionSpec(name: "--after", value: "U", help: "only users whose id sorts after U (the previous page's next)")

    static let spec = CommandSpec(
        name: "users",
        summary: "customer lists: the users in a plan state, in a trial ending before an instant, churned since, … as of --at",
        positionals: nil,
        options: Common.query + [whereOption, limit, after, Common.asKnownAt],
        details: """
        Conditions (--where, repeatable) must all hold as of --at. Users print in id order; with --limit,
        JSON's next (the last user printed, or null at the end) is the --after of the next page.
        """
    ) { a in try run(a) }

    static func filter(_ conditions: [String]) throws -> CustomerFilter {
        var f = CustomerFilter()
        for c in conditions {
            guard let eq = c.firstIndex(of: "="), eq != c.startIndex, c.index(after: eq) != c.endIndex else {
                throw ToolError.usage("--where '\(c)' is not KEY=VALUE")
            }
            let key = String(c[..<eq]), value = String(c[c.index(after: eq)...])
            func bool() throws -> Bool {
                guard let b = Bool(value) else { throw ToolError.usage("--where \(key) '\(value)' is not true or false") }
                return b
            }
            func time() throws -> Timestamp {
                switch ValueRanges.time(value) {
                case .success(let t): return t
                case .failure(.notRFC3339): throw ToolError.usage("--where \(key) '\(value)' is not an RFC 3339 time such as 2026-01-06T10:00:00Z")
                case .failure(.outOfRange): throw ToolError.usage("--where \(key) '\(value)' is out of range (\(ValueRanges.timesText))")
                }
            }
            switch key {
            case "planState":
                guard let s = PlanState(rawValue: value) else {
                    throw ToolError.usage("--where planState '\(value)' is not one of \(PlanState.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                f.planState = s
            case "graceReason":
                guard let r = GraceReason(rawValue: value) else { throw ToolError.usage("--where graceReason '\(value)' is not billing or unverified") }
                f.graceReason = r
            case "billingIssue": f.billingIssue = try bool()
            case "autoRenew": f.autoRenew = try bool()
            case "product": f.product = value
            case "tier": f.tier = value
            case "trialEndsBefore": f.trialEndsBefore = try time()
            case "churnedSince": f.churnedSince = try time()
            default:
                throw ToolError.usage("--where key '\(key)' is not one of planState, graceReason, billingIssue, autoRenew, product, tier, trialEndsBefore, churnedSince")
            }
        }
        return f
    }

    static func run(_ a: ParsedArguments) throws -> Int32 {
        let format = try Common.format(a, allowed: [.table, .json, .csv, .jsonl])
        let at = try Common.at(a)
        let f = try filter(a.all("--where"))
        let limit = try Common.number(a, "--limit", in: 1...1_000_000_000).map { Int($0) } ?? .max
        let after = a.value("--after")
        var rows: [CustomerRow] = []
        var more = false
        for model in try MetricsCommand.models(a, spans: true) {
            let page = model.customers(at: at, where: f, after: after, limit: limit)
            rows += page.rows
            more = more || page.more
        }
        // Partitions hold disjoint users: their pages merge in id order, cut at the limit.
        rows.sort { $0.user < $1.user }
        if rows.count > limit {
            rows.removeLast(rows.count - limit)
            more = true
        }
        let next = more ? rows.last?.user : nil
        switch format {
        case .json:
            Console.out(JSON.object([
                ("at", .time(at)), ("where", .array(a.all("--where").map { .string($0) })),
                ("users", .array(rows.map(json))), ("next", .text(next)),
            ]).rendered + "\n")
        case .jsonl:
            JSON.printLines(rows, json)
            if let next { Console.err("more users follow: --after \(next)") }
        case .table, .csv:
            var t = TextTable(headers: ["user", "planState", "graceReason", "graceEndsAt", "product", "tier", "expiresAt", "autoRenew", "billingIssue", "churnedAt"])
            for r in rows {
                t.rows.append([r.user, r.planState.rawValue, r.graceReason?.rawValue ?? "", r.graceEndsAt?.description ?? "", r.product ?? "", r.tier,
                               r.expiresAt?.description ?? "", r.autoRenew.map { "\($0)" } ?? "", "\(r.billingIssue)", r.churnedAt?.description ?? ""])
            }
            Console.out(t.render(format))
            if let next, format == .table { Console.err("more users follow: --after \(next)") }
        }
        return 0
    }

    static func json(_ r: CustomerRow) -> JSON {
        .object([
            ("user", .string(r.user)), ("planState", .string(r.planState.rawValue)), ("graceReason", .text(r.graceReason?.rawValue)),
            ("graceEndsAt", .time(r.graceEndsAt)), ("product", .text(r.product)), ("tier", .string(r.tier)), ("expiresAt", .time(r.expiresAt)),
            ("autoRenew", r.autoRenew.map { .bool($0) } ?? .null), ("billingIssue", .bool(r.billingIssue)), ("churnedAt", .time(r.churnedAt)),
        ])
    }
}
