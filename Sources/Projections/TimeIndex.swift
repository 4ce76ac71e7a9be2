import EventStore
import SubscriptionDomain

/// Every report figure of `counts`, `funnel` and `revenue` as a step function of the instant
/// asked: per `TimeKey`, the instants (in order) at which the sum over users changes and the sum
/// from each of them on. A figure as of T is one binary search (the last instant at or before
/// T); a window is two; a series one per bucket boundary. Built from every user's walk
/// (`UserSteps`, TimeIndex+Build.swift), kept in one file named by what it derives from (the
/// projection fingerprint: profile, rules, code; the log's head position and chain hash), and
/// used only when all of it matches (TimeIndex+Binary.swift, ProjectionStore+TimeIndex.swift).
public struct TimeIndex: Sendable {
    /// Bump when the index's content or stored form changes: stored indexes of other versions are rebuilt.
    static let formatVersion = 1

    /// The projection fingerprint (profile, rules, fold code) the walks were folded with.
    var fingerprint: String
    /// The log position the index covers and the log's chain hash there.
    public internal(set) var position: UInt64
    var hash: EventStore.SHA256.Digest
    /// The earliest event time of the log (a series' default start).
    public internal(set) var firstEvent: Timestamp?
    /// Whether no sum of money can saturate (else revenue is folded as before).
    var moneyExact = true
    /// The keys, in order; key k's instants and sums are `times[starts[k]..<starts[k + 1]]`.
    var keys: [TimeKey] = []
    var starts: [Int] = [0]
    var times: [Int64] = []
    var sums: [Int64] = []

    init(fingerprint: String, position: UInt64, hash: EventStore.SHA256.Digest) {
        self.fingerprint = fingerprint
        self.position = position
        self.hash = hash
    }

    /// The number of (key, instant) steps held.
    public var stepCount: Int { times.count }

    /// Key k's sum as of instant `t` (its changes at or before `t`); with `before`, strictly before `t`.
    func value(_ k: Int, at t: Timestamp, before: Bool = false) -> Int64 {
        var lo = starts[k], hi = starts[k + 1]
        let target = t.nanoseconds
        // The first step after the target (or at it, `before`).
        while lo < hi {
            let mid = (lo + hi) / 2
            if before ? times[mid] < target : times[mid] <= target { lo = mid + 1 } else { hi = mid }
        }
        return lo == starts[k] ? 0 : sums[lo - 1]
    }

    /// Every key's sum as of `t` (or strictly before it), in key order.
    func values(at t: Timestamp, before: Bool = false) -> [Int64] {
        keys.indices.map { value($0, at: t, before: before) }
    }
}
