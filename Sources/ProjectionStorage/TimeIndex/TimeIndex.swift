import Projections
import EventStore
import SubscriptionDomain

/// Every report figure of `counts`, `funnel` and `revenue` as a step function of the instant
/// asked: per `TimeKey`, the instants (in order) at which the sum over users changes and the sum
/// from each of them on. A figure as of T is one binary search (the last instant at or before
/// T); a window is two; a series one per bucket boundary. Built from every user's walk
/// (`UserSteps`, TimeIndex+Build.swift) into the base; after new records, only the users they
/// touch are walked again, their old differences taken out and the new ones put in, into the
/// overlay (TimeIndex+Update.swift), which is merged into the base when it grows. Both are kept
/// in files named by what they derive from (the projection fingerprint: profile, rules, code;
/// the log's head position and chain hash) and used only when all of it matches
/// (TimeIndex+Binary.swift, ProjectionStore+TimeIndex.swift).
public struct TimeIndex: Sendable {
    /// Bump when the index's content or stored form changes: stored indexes of other versions are rebuilt.
    /// 5: the base names the profile it was folded with (`profileJSON`). 6: the cohorts of a series
    /// with a start (`cohortFunnel`, retention keys under window days). 7: a chain's changes on the
    /// day it is taken out under are taken out as one (`WindowSteps`), overall funnel keys beyond
    /// the contexts'. 8: the funnel as of an instant is read from the window funnel's keys (no
    /// `reached` or `context` keys). 9: the checks of a retention cohort measured from its paid
    /// starts by when they fall due (`retentionDue`). 10: no `trialStarted` key (the cohorts'
    /// sum), `active` beyond the MRR holders.
    static let formatVersion = 10
    /// The mark at the end of the fingerprint of an index that counts sandbox events too (its own file).
    static let sandboxMark = "+sandbox"
    /// Whether the index counts sandbox events too, as a replay with `includeSandbox` does.
    var includesSandbox: Bool { fingerprint.hasSuffix(Self.sandboxMark) }

    /// The projection fingerprint (profile, rules, fold code) the walks were folded with.
    var fingerprint: String
    /// That profile, as JSON (`Profile.encodedJSON`): an index under other rules can be derived
    /// from this one when its fingerprint is the one this profile gives (TimeIndex+Derive.swift).
    var profileJSON = ""
    /// The log position the index covers (the overlay's when there is one) and the log's chain hash there.
    public internal(set) var position: UInt64
    var hash: EventStore.SHA256.Digest
    /// The log position the base covers and the chain hash there (the overlay names them).
    var basePosition: UInt64
    var baseHash: EventStore.SHA256.Digest
    /// The earliest event time of the log (a series' default start).
    public internal(set) var firstEvent: Timestamp?
    /// The sums over every user (in memory after a build or a merge; read in blocks from a stored
    /// base, PagedSteps.swift), and the differences of the users walked again since (empty: none).
    enum Base: Sendable {
        case memory(TimeSteps)
        case paged(PagedSteps)
    }
    private(set) var base: Base
    private(set) var overlay = TimeSteps()
    /// The sums of the magnitudes of every amount of money each was built from (saturating).
    var baseMagnitude: Int64
    var overlayMagnitude: Int64 = 0
    /// The keys of either, in order, and each one's number in the base and in the overlay (-1: absent).
    private(set) var keys: [TimeKey] = []
    private var slots: [(base: Int32, overlay: Int32)] = []

    init(fingerprint: String, position: UInt64, hash: EventStore.SHA256.Digest, firstEvent: Timestamp?,
         base: Base, baseMagnitude: Int64) {
        self.fingerprint = fingerprint
        self.position = position
        self.hash = hash
        basePosition = position
        baseHash = hash
        self.firstEvent = firstEvent
        self.base = base
        self.baseMagnitude = baseMagnitude
        joinKeys()
    }

    /// The index with `overlay` over this one's base, covering the log up to `position`.
    func with(overlay: TimeSteps, magnitude: Int64, firstEvent: Timestamp?, position: UInt64, hash: EventStore.SHA256.Digest) -> TimeIndex {
        var out = self
        out.overlay = overlay
        out.overlayMagnitude = magnitude
        out.firstEvent = firstEvent
        out.position = position
        out.hash = hash
        out.joinKeys()
        return out
    }

    /// The same sums with the overlay merged into the base (which then covers the index's position).
    func compacted() throws -> TimeIndex {
        var out = TimeIndex(fingerprint: fingerprint, position: position, hash: hash, firstEvent: firstEvent,
                            base: .memory(TimeSteps.merged(try memoryBase(), overlay)), baseMagnitude: baseMagnitude.addingSaturated(overlayMagnitude))
        out.profileJSON = profileJSON
        return out
    }

    /// The base's steps, all in memory (a stored base's blocks read and checked).
    func memoryBase() throws -> TimeSteps {
        switch base {
        case .memory(let steps): return steps
        case .paged(let paged): return try paged.loadAll()
        }
    }

    var baseKeys: [TimeKey] {
        switch base {
        case .memory(let steps): return steps.keys
        case .paged(let paged): return paged.keys
        }
    }

    var baseCount: Int {
        switch base {
        case .memory(let steps): return steps.count
        case .paged(let paged): return paged.count
        }
    }

    private mutating func joinKeys() {
        keys = []
        slots = []
        let baseKeys = baseKeys
        var i = 0, j = 0
        while i < baseKeys.count || j < overlay.keys.count {
            if j == overlay.keys.count || (i < baseKeys.count && baseKeys[i] < overlay.keys[j]) {
                keys.append(baseKeys[i]); slots.append((Int32(i), -1)); i += 1
            } else if i == baseKeys.count || overlay.keys[j] < baseKeys[i] {
                keys.append(overlay.keys[j]); slots.append((-1, Int32(j))); j += 1
            } else {
                keys.append(baseKeys[i]); slots.append((Int32(i), Int32(j))); i += 1; j += 1
            }
        }
    }

    /// Whether the index has an overlay.
    var hasOverlay: Bool { !overlay.keys.isEmpty || position != basePosition }

    /// Whether no sum of money can saturate (else revenue is folded as before).
    var moneyExact: Bool { baseMagnitude.addingSaturated(overlayMagnitude) < .max }

    /// The number of (key, instant) steps held, base and overlay.
    public var stepCount: Int { baseCount + overlay.count }

    /// Key k's sum as of instant `t` (its changes at or before `t`); with `before`, strictly before
    /// `t`. A stored base's block that fails its checks throws `ProjectionReader.Unreadable`.
    func value(_ k: Int, at t: Timestamp, before: Bool = false) throws -> Int64 {
        let s = slots[k]
        var v: Int64 = 0
        if s.base >= 0 {
            switch base {
            case .memory(let steps): v = steps.value(Int(s.base), at: t.nanoseconds, before: before)
            case .paged(let paged): v = try paged.value(Int(s.base), at: t.nanoseconds, before: before)
            }
        }
        if s.overlay >= 0 { v &+= overlay.value(Int(s.overlay), at: t.nanoseconds, before: before) }
        return v
    }

    /// Every key's sum as of `t` (or strictly before it), in key order.
    func values(at t: Timestamp, before: Bool = false) throws -> [Int64] {
        try keys.indices.map { try value($0, at: t, before: before) }
    }
}
