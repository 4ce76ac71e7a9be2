import Projections
import Reports
import SubscriptionDomain

/// `report --by-segment S`: the "By S" section, from the reports `revenue --by-segment S` and
/// `funnel --by-segment S` answer at the page's instant (and window), every `--log` merged.
extension ReportCommand {
    static let bySegment = OptionSpec(name: "--by-segment", value: "product|store|country|offer|tier",
                                      help: "add a section \"By S\": per segment value (all first) a table row and bars of active subscriptions and trials, trials started and converted, net revenue and MRR per currency (each user in one segment: the values add up to all)")

    static func segments(_ a: ParsedArguments, segment: Segment?, at: Timestamp, profile: Profile) throws -> ReportSegments? {
        guard let segment else { return nil }
        let parts = try SegmentReports.merged(a, [.revenue, .funnel], segment: segment, profile: profile, at: at)
        func revenue(_ p: SegmentReports.Parts) -> RevenueReport { if case .revenue(let r) = p { r } else { RevenueReport.merging([]) } }
        func funnel(_ p: SegmentReports.Parts) -> FunnelReport { if case .funnel(let f) = p { f } else { FunnelReport.merging([]) } }
        return ReportSegments(segment: segment.rawValue,
                              revenue: (revenue(parts[0].total), parts[0].values.map { ($0.0, revenue($0.1)) }),
                              funnel: (funnel(parts[1].total), parts[1].values.map { ($0.0, funnel($0.1)) }))
    }
}
