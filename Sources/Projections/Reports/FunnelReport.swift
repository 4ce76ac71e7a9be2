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

        package init(week: String, started: Int, converted: Int) {
            self.week = week
            self.started = started
            self.converted = converted
        }
    }
    public var steps: [Step]
    public var byContext: [String: [Step]]
    public var trialsStarted: Int
    public var trialsConverted: Int
    public var cohorts: [Cohort]

    /// The steps from `reached[k]`: how many users got exactly k steps far.
    package static func steps(_ reached: [Int]) -> [Step] {
        steps(names: FunnelProgress.steps.map(\.rawValue), users: FunnelProgress.steps.indices.map { reached[($0 + 1)...].reduce(0, +) })
    }

    /// Steps of these names reached by these numbers of users, each rate computed from the counts.
    package static func steps(names: [String], users: [Int]) -> [Step] {
        var out: [Step] = []
        for (i, (name, n)) in zip(names, users).enumerated() {
            let previous = i == 0 ? n : out[i - 1].users
            out.append(Step(name: name, users: n, rate: Rates.step(users: n, previous: previous)))
        }
        return out
    }

    package init(steps: [Step], byContext: [String: [Step]], trialsStarted: Int, trialsConverted: Int, cohorts: [Cohort]) {
        self.steps = steps
        self.byContext = byContext
        self.trialsStarted = trialsStarted
        self.trialsConverted = trialsConverted
        self.cohorts = cohorts
    }
}

extension LedgerSnapshot {
    /// The funnel over the analytics window.
    public func funnel() -> FunnelReport {
        let noneReached = Array(repeating: 0, count: FunnelProgress.steps.count + 1)
        var reached = noneReached
        var contexts = FewKeys<[Int]>()
        // Per day of trial start: started, converted (weeks are named once per day, not per user).
        var days: [Int64: (Int, Int)] = [:]
        users.forEachFold { f in
            reached[Int(f.funnel.reached)] += 1
            for p in f.funnel.byContext { contexts[p.context, default: noneReached][Int(p.reached)] += 1 }
            guard let trialStart = f.trialStartedAt, options.inWindow(trialStart) else { return }
            let day = (trialStart.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400)
            days[day, default: (0, 0)].0 += 1
            if f.trialConverted { days[day, default: (0, 0)].1 += 1 }
        }
        var cohorts: [String: (Int, Int)] = [:]
        for (day, (started, converted)) in days {
            let week = Self.weekStart(Timestamp(seconds: day * 86_400))
            cohorts[week, default: (0, 0)].0 += started
            cohorts[week, default: (0, 0)].1 += converted
        }
        let cohortList = cohorts.map { FunnelReport.Cohort(week: $0.key, started: $0.value.0, converted: $0.value.1) }.sorted { $0.week < $1.week }
        return FunnelReport(
            steps: FunnelReport.steps(reached),
            byContext: contexts.dictionary.mapValues { FunnelReport.steps($0) },
            trialsStarted: cohortList.reduce(0) { $0 + $1.started },
            trialsConverted: cohortList.reduce(0) { $0 + $1.converted },
            cohorts: cohortList)
    }

    package static func weekStart(_ t: Timestamp) -> String {
        let days = Int((t.nanoseconds / 1_000_000_000).quotientRoundingDown(86_400))
        let monday = days - ((days + 3) % 7 + 7) % 7
        return String(Timestamp(seconds: Int64(monday) * 86_400).description.prefix(10))
    }
}

extension Int64 {
    func quotientRoundingDown(_ d: Int64) -> Int64 { self >= 0 ? self / d : (self - d + 1) / d }
}
