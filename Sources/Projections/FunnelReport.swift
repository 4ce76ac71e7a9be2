import SubscriptionDomain

/// Users reaching each paywall step (each after the one before), overall and per paywall context,
/// and trials started → converted, overall and per weekly cohort of trial start.
public struct FunnelReport: Sendable, Equatable {
    public struct Step: Sendable, Equatable {
        public var name: String
        public var users: Int
        /// Share of the previous step's users (1 for the first step).
        public var rate: Double
    }
    public struct Cohort: Sendable, Equatable {
        /// The Monday (UTC) of the week the trials started, as YYYY-MM-DD.
        public var week: String
        public var started: Int
        public var converted: Int
    }
    public var steps: [Step]
    public var byContext: [String: [Step]]
    public var trialsStarted: Int
    public var trialsConverted: Int
    public var cohorts: [Cohort]

    static func steps(_ reached: [Int]) -> [Step] {
        var out: [Step] = []
        for (i, type) in FunnelProgress.steps.enumerated() {
            let n = reached.filter { $0 > i }.count
            let previous = i == 0 ? n : out[i - 1].users
            out.append(Step(name: type.rawValue, users: n, rate: previous == 0 ? 0 : Double(n) / Double(previous)))
        }
        return out
    }
}

extension LedgerSnapshot {
    /// The funnel over the analytics window.
    public func funnel() -> FunnelReport {
        let folds = users.folds
        var contexts: [String: [Int]] = [:]
        for f in folds { for p in f.funnel.byContext { contexts[p.context, default: []].append(Int(p.reached)) } }
        var cohorts: [String: (Int, Int)] = [:]
        for f in folds {
            guard let start = f.trialStartedAt, options.inWindow(start) else { continue }
            let week = Self.weekStart(start)
            cohorts[week, default: (0, 0)].0 += 1
            if f.trialConverted { cohorts[week, default: (0, 0)].1 += 1 }
        }
        let cohortList = cohorts.map { FunnelReport.Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week }
        return FunnelReport(
            steps: FunnelReport.steps(folds.map { Int($0.funnel.reached) }),
            byContext: contexts.mapValues { FunnelReport.steps($0) },
            trialsStarted: cohortList.reduce(0) { $0 + $1.started },
            trialsConverted: cohortList.reduce(0) { $0 + $1.converted },
            cohorts: cohortList)
    }

    static func weekStart(_ t: Timestamp) -> String {
        let days = Int((t.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400))
        let monday = days - ((days + 3) % 7 + 7) % 7
        return String(Timestamp(seconds: Int64(monday) * 86_400).description.prefix(10))
    }
}

extension Int64 {
    func quotientRoundingDown(_ d: Int64) -> Int64 { self >= 0 ? self / d : (self - d + 1) / d }
}
