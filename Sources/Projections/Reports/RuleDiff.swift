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
    /// Compares the plans of every user in the two snapshots; the differences in user id order.
    /// Each user is looked up once in the other snapshot (no list of every id is sorted).
    public static func compare(_ a: LedgerSnapshot, _ b: LedgerSnapshot) -> [PlanDifference] {
        var out: [PlanDifference] = []
        func compare(_ user: String, _ va: PlanView, _ vb: PlanView) {
            var fields: [String] = []
            if va.planState != vb.planState { fields.append("planState") }
            if va.graceReason != vb.graceReason { fields.append("graceReason") }
            if va.graceEndsAt != vb.graceEndsAt { fields.append("graceEndsAt") }
            if va.entitlements != vb.entitlements { fields.append("entitlements") }
            if va.trialEligible != vb.trialEligible { fields.append("trialEligible") }
            if va.credits != vb.credits { fields.append("credits") }
            if !fields.isEmpty { out.append(PlanDifference(user: user, a: va, b: vb, fields: fields)) }
        }
        a.users.forEachFold { compare($0.user, a.plan(of: $0), b.plan(of: $0.user)) }
        b.users.forEachFold { if a.users.state(of: $0.user) == nil { compare($0.user, a.plan(of: $0.user), b.plan(of: $0)) } }
        return out.sorted { $0.user < $1.user }
    }
}
