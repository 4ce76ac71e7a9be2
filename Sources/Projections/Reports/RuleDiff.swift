import SubscriptionDomain

/// One user whose plan differs under two profiles, and how.
public struct PlanDifference: Sendable, Equatable {
    public var user: String
    public var a: PlanView
    public var b: PlanView
    /// The fields that differ, by their JSON names.
    public var fields: [String]
}

/// The same log folded under two profiles: who is in a different state as of an instant.
public enum RuleDiff {
    /// Compares the plans of every user in the two snapshots.
    public static func compare(_ a: LedgerSnapshot, _ b: LedgerSnapshot) -> [PlanDifference] {
        Set(a.userIDs).union(b.userIDs).sorted().compactMap { user in
            let va = a.plan(of: user), vb = b.plan(of: user)
            var fields: [String] = []
            if va.planState != vb.planState { fields.append("planState") }
            if va.graceReason != vb.graceReason { fields.append("graceReason") }
            if va.graceEndsAt != vb.graceEndsAt { fields.append("graceEndsAt") }
            if va.entitlements != vb.entitlements { fields.append("entitlements") }
            if va.trialEligible != vb.trialEligible { fields.append("trialEligible") }
            if va.credits != vb.credits { fields.append("credits") }
            return fields.isEmpty ? nil : PlanDifference(user: user, a: va, b: vb, fields: fields)
        }
    }
}
