import Projections
import SubscriptionDomain

/// Everything the report page shows, gathered by the caller from one log at one instant. The
/// page holds aggregates only (never a row per user, except the users a rule change moves).
public struct ReportInput: Sendable {
    /// The log folder(s) read.
    public var logs: [String]
    public var profile: String
    public var instant: Timestamp
    /// With `report --from`: the window's start (`instant` is then its end, `--to`).
    public var from: Timestamp?
    /// The log's head the figures reflect: its position and chain hash (`verify` prints the same).
    public var headPosition: UInt64
    public var headHash: String
    /// With several logs (partitions of one ledger): each log's head, in the order of `logs`
    /// (`headPosition` and `headHash` then name the first's).
    public var partitionHeads: [(position: UInt64, hash: String)] = []
    public var counts: [String: Int]
    public var funnel: FunnelReport
    public var revenue: RevenueReport
    public var notifications: NotificationSummary
    /// The series of the stock, trial and churn charts: by week for a span of months, by month,
    /// quarter or year for longer ones (`ReportSpan.widths`).
    public var fine: LedgerSeries
    /// The series of the revenue charts and the retention table: by month, quarter or year.
    public var coarse: LedgerSeries
    /// With a second profile: its name and the users whose plan differs under it.
    public var comparison: (profile: String, differences: [PlanDifference])?
    /// With `--compare-known-at`: the headline numbers as known then and now, and the late records.
    public var restatement: Restatement?
    /// With `--as-known-at`: the record time the page is as known at (its head is that prefix's).
    public var knownAt: Timestamp?
    /// The analysts' metrics (`metrics --by`) of each bucket of `fine`, when the page shows them.
    public var analysts: [AnalystMetrics]?
    /// With `report --by-segment`: the headline figures of every user and of each segment value.
    public var segments: ReportSegments?

    public init(logs: [String], profile: String, instant: Timestamp, headPosition: UInt64, headHash: String,
                counts: [String: Int], funnel: FunnelReport, revenue: RevenueReport, notifications: NotificationSummary,
                fine: LedgerSeries, coarse: LedgerSeries, comparison: (profile: String, differences: [PlanDifference])? = nil) {
        self.logs = logs
        self.profile = profile
        self.instant = instant
        self.headPosition = headPosition
        self.headHash = headHash
        self.counts = counts
        self.funnel = funnel
        self.revenue = revenue
        self.notifications = notifications
        self.fine = fine
        self.coarse = coarse
        self.comparison = comparison
    }
}
