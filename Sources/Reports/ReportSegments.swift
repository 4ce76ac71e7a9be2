import Projections

/// The page's "By SEGMENT" section (`report --by-segment`): the headline figures of every user and
/// of each segment value's users, as `revenue --by-segment` and `funnel --by-segment` answer them.
public struct ReportSegments: Sendable {
    /// One row: `all` (every user), then each value in the order of the reports' `segments` arrays.
    public struct Row: Sendable {
        public var name: String
        /// The value's index in the `segments` array of each JSON; nil for `all` (the top-level fields).
        public var revenueIndex: Int?
        public var funnelIndex: Int?
        public var revenue: RevenueReport?
        public var funnel: FunnelReport?

        public init(name: String, revenueIndex: Int?, funnelIndex: Int?, revenue: RevenueReport?, funnel: FunnelReport?) {
            self.name = name
            self.revenueIndex = revenueIndex
            self.funnelIndex = funnelIndex
            self.revenue = revenue
            self.funnel = funnel
        }
    }

    /// The dimension: product, store, country, offer or tier.
    public var segment: String
    public var rows: [Row]

    public init(segment: String, rows: [Row]) {
        self.segment = segment
        self.rows = rows
    }

    /// Builds the rows from each report's total and values (values in order), `all` first; a value
    /// one report lacks has no figures of it.
    public init(segment: String, revenue: (total: RevenueReport, values: [(String, RevenueReport)]),
                funnel: (total: FunnelReport, values: [(String, FunnelReport)])) {
        var rows = [Row(name: "all", revenueIndex: nil, funnelIndex: nil, revenue: revenue.total, funnel: funnel.total)]
        let names = Set(revenue.values.map(\.0)).union(funnel.values.map(\.0)).sorted()
        for name in names {
            let r = revenue.values.firstIndex { $0.0 == name }, f = funnel.values.firstIndex { $0.0 == name }
            rows.append(Row(name: name, revenueIndex: r, funnelIndex: f, revenue: r.map { revenue.values[$0].1 }, funnel: f.map { funnel.values[$0].1 }))
        }
        self.init(segment: segment, rows: rows)
    }
}
