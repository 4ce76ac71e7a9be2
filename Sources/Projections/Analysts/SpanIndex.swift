import SubscriptionDomain

/// Every user's plan spans (`AnalystFacts.Span`, each from its start to the next one's), found
/// by the instant they hold at: per plan state, the spans of each 30-day epoch they overlap, and
/// apart the long ones (over 400 days, or open-ended: a user's last span), read at every instant.
/// A list of users in an access state (trial, pro, pro_grace) as of T thus reads the spans of T's
/// epoch, not every user; a list of `free` or `guest` users reads every user's open span.
package struct SpanIndex: Sendable {
    package struct Row: Sendable {
        package var span: AnalystFacts.Span
        package var end: Int64
        package var user: Int32

        package init(span: AnalystFacts.Span, end: Int64, user: Int32) {
            self.span = span
            self.end = end
            self.user = user
        }
    }
    struct Group: Sendable {
        var epochs: [Int64: [Int32]] = [:]
        var long: [Int32] = []
    }

    static let epoch: Int64 = 30 * 86_400 * 1_000_000_000
    static let longSpan: Int64 = 400 * 86_400 * 1_000_000_000

    /// Rows in user order, then start order.
    package private(set) var rows: [Row] = []
    /// User u's rows are `rows[userStart[u]..<userStart[u + 1]]`.
    private(set) var userStart: [Int] = [0]
    private var groups: [PlanState: Group] = [:]

    init() {}

    package init(_ rows: [Row]) {
        self.rows = rows
        var u: Int32 = 0
        for (i, r) in rows.enumerated() {
            while u < r.user { userStart.append(i); u += 1 }
            let start = r.span.start.nanoseconds
            if r.end == AnalystModel.never || r.end <= start || r.end &- start > Self.longSpan {
                groups[r.span.planState, default: Group()].long.append(Int32(i))
            } else {
                for e in Self.epoch(of: start)...Self.epoch(of: r.end - 1) {
                    groups[r.span.planState, default: Group()].epochs[e, default: []].append(Int32(i))
                }
            }
        }
        userStart.append(rows.count)
    }

    static func epoch(of t: Int64) -> Int64 { t.quotientRoundingDown(epoch) }

    /// The rows holding at `t` (start at or before it, end after it) in the given plan states.
    func rows(at t: Int64, states: [PlanState]) -> [Int] {
        var out: [Int] = []
        let e = Self.epoch(of: t)
        for state in states {
            guard let g = groups[state] else { continue }
            for i in (g.epochs[e] ?? []) + g.long {
                let r = rows[Int(i)]
                if r.span.start.nanoseconds <= t, t < r.end { out.append(Int(i)) }
            }
        }
        return out
    }

    /// User `u`'s row holding at `t`, if the user had an event by then.
    func row(of u: Int32, at t: Int64) -> Int? {
        guard Int(u) + 1 < userStart.count else { return nil }
        var lo = userStart[Int(u)], hi = userStart[Int(u) + 1]
        while lo < hi {
            let mid = (lo + hi) / 2
            if rows[mid].span.start.nanoseconds <= t { lo = mid + 1 } else { hi = mid }
        }
        return lo == userStart[Int(u)] ? nil : lo - 1
    }
}
