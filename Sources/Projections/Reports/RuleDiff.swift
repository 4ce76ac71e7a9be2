import SubscriptionDomain
import Platform

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
    /// Each user is looked up once in the other snapshot (no list of every id is sorted); the
    /// users of A are compared in two halves of its partitions at the same time.
    public static func compare(_ a: LedgerSnapshot, _ b: LedgerSnapshot) -> [PlanDifference] {
        let partitions = a.users.tables.count, middle = partitions / 2
        let (first, second) = Parallel.both({ differences(a, b, inPartitions: 0..<middle) },
                                            { differences(a, b, inPartitions: middle..<partitions) })
        var out = first + second
        b.users.forEachFold {
            guard !a.users.contains($0.user), let d = difference($0.user, a.plan(of: $0.user), b.plan(of: $0)) else { return }
            out.append(d)
        }
        return out.sorted { $0.user < $1.user }
    }

    /// The differences of the users in A's partitions `range`.
    private static func differences(_ a: LedgerSnapshot, _ b: LedgerSnapshot, inPartitions range: Range<Int>) -> [PlanDifference] {
        var out: [PlanDifference] = []
        a.users.forEachFold(inPartitions: range) {
            if let d = difference($0.user, a.plan(of: $0), b.plan(of: $0.user)) { out.append(d) }
        }
        return out
    }

    /// How one user's plans differ, or nil when they do not.
    package static func difference(_ user: String, _ va: PlanView, _ vb: PlanView) -> PlanDifference? {
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
