import Projections
import Foundation
import EventStore
import SubscriptionDomain

/// The identity of the rules a derived file was made with, computed from what they do rather than
/// from a version number someone must remember to bump: the built-in corpus (`RulesCorpus`) is
/// folded through the Decider and every read model at several instants, and the answers (plan
/// views, counts, funnel, notification schedule, revenue) are hashed together with the stored
/// bytes of every fold and of every event in the event cache's form. A change to a rule, a read
/// model, the fold's stored layout or the cache's codec that shows on the corpus gives another
/// fingerprint, and kept projections made under the old one are rebuilt.
///
/// Computed once per profile per process (a few milliseconds in a release build).
public enum RulesFingerprint {
    /// The fingerprint for `profile`'s rules: 16 hex digits of SHA-256.
    public static func of(_ profile: Profile) -> String { cache.value(for: profile, keptIn: nil) }

    /// The same, kept in `folder` for later processes of this build (`KeptFingerprint`): read from
    /// there when a file of this build and profile is whole, else computed and written there
    /// (a folder that cannot be written only costs the computation again).
    public static func of(_ profile: Profile, keptIn folder: String) -> String { cache.value(for: profile, keptIn: folder) }

    /// The digest itself, without the memo.
    static func compute(_ profile: Profile) -> String {
        var h = EventStore.SHA256()
        func add(_ text: String) { h.update(Array(text.utf8)); h.update([0x0A]) }
        let events = RulesCorpus.events(profile)
        let ordered = events.enumerated().sorted { a, b in
            a.element.time != b.element.time ? a.element.time < b.element.time : a.offset < b.offset
        }.map(\.element)
        var cache = EventCache.Writer(events: events.count)
        for e in events { cache.writeBody(e, recorded: 0) }
        h.update(cache.body.bytes)
        let decider = PlanDecider(profile: profile)
        for instant in RulesCorpus.instants {
            let options = ReplayOptions(profile: profile, asOf: instant)
            var users = UserPartitions([UserTable<UserFold>()])
            for e in ordered where e.time <= instant { users.update(e.user) { $0.apply(e, decider, options) } }
            Replay.handTransfers(&users, options: options)
            let snapshot = LedgerSnapshot(options: options, users: users, headPosition: 0)
            var folds = ProjectionWriter()
            for user in snapshot.userIDs {
                folds.fold(users[user]!)
                add(canonical(snapshot.plan(of: user)))
            }
            h.update(folds.bytes)
            add(canonical(snapshot.counts()))
            add(canonical(snapshot.funnel()))
            add(canonical(snapshot.notifications()))
            add(canonical(snapshot.revenue()))
        }
        return String(h.finalize().description.prefix(16))
    }

    /// A value written out field by field (by reflection, so a field added to a report is covered
    /// without a list to keep), with dictionaries and sets in sorted order: the same value always
    /// gives the same text, whatever the hash seed.
    static func canonical(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .dictionary?, .set?:
            return "{" + mirror.children.map { canonical($0.value) }.sorted().joined(separator: ",") + "}"
        case .optional?:
            return mirror.children.first.map { canonical($0.value) } ?? "nil"
        case nil:
            return String(describing: value)
        default:
            if mirror.children.isEmpty { return String(describing: value) }
            let fields = mirror.children.map { ($0.label.map { $0 + ":" } ?? "") + canonical($0.value) }
            return "\(mirror.subjectType)(" + fields.joined(separator: ",") + ")"
        }
    }

    private static let cache = FingerprintMemo()
}

/// Fingerprints already computed in this process, by profile (its JSON).
final class FingerprintMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var known: [String: String] = [:]

    func value(for profile: Profile, keptIn folder: String?) -> String {
        let key = profile.encodedJSON()
        if let v = lock.withLock({ known[key] }) { return v }
        let kept = folder.flatMap { KeptFingerprint(folder: $0, profileJSON: key) }
        let stored = kept?.read()
        let v = stored ?? RulesFingerprint.compute(profile)
        if let kept, stored == nil { kept.write(v) }
        lock.withLock { known[key] = v }
        return v
    }
}
