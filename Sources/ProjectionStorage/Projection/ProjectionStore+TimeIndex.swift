import Projections
import EventStore
import SubscriptionDomain
import Platform

extension ProjectionStore {
    /// The time index's base file, next to the projection it goes with.
    public var timeIndexPath: String { logDirectory + "/projections/" + Self.fileLabel(profile.name) + "-" + timeIndexFingerprint + ".timeindex" }

    /// What the time index derives from: the projection's fingerprint, marked when it counts sandbox events too.
    var timeIndexFingerprint: String { fingerprint + (timeIndexWithSandbox ? TimeIndex.sandboxMark : "") }

    /// The time index's overlay file (the users walked again since the base), next to the base.
    public var timeIndexOverlayPath: String { timeIndexPath + "-overlay" }

    /// What bringing the time index to the log's head did.
    public struct TimeIndexRefresh: Sendable, Equatable {
        /// Built from the whole log (no usable base): the cost of a full build.
        public var rebuilt = false
        /// Brought from an earlier head by walking the users touched since (`TimeIndex.updated`).
        public var update: TimeIndex.Update?
        /// Derived from the index kept under another profile of the app, by walking the users the
        /// change of profile reaches (`TimeIndex.derived`).
        public var derivation: TimeIndex.Derivation?
        /// Whether a file was written (the base, or the overlay).
        public var wrote = false
    }

    /// The time index of the log as of its head, and whether it was built now.
    public func timeIndex() throws -> (index: TimeIndex, rebuilt: Bool) {
        let (index, refresh) = try refreshedTimeIndex()
        return (index, refresh.rebuilt)
    }

    /// The time index of the log as of its head, and what bringing it there cost.
    ///
    /// The stored base is used only when its table is whole (CRC, every key, order and block
    /// fence one a build makes, the file the size the table gives), of this format and fingerprint (profile, rules, fold code), and its head is a head
    /// of this log (position reached, same chain hash); the stored overlay only when, as well, it
    /// names that base (position and chain hash) and its own head is one of this log. When that
    /// head is the log's, the index is served as stored; when it is earlier, the users of the
    /// records since are walked again (`TimeIndex.updated`) and the overlay (or, merged, the
    /// base) written again. Without one, an index kept under another profile of the app that
    /// goes with the log as well is brought to this profile by walking the users the change
    /// reaches (`derivedTimeIndex`). Otherwise the index is built from the log (through the
    /// event cache) and saved. A file that cannot be saved leaves the answer standing. `overlayLimit` is the
    /// overlay's size (steps) past which it is merged into the base (default: `TimeIndex.overlayLimit`).
    public func refreshedTimeIndex(overlayLimit: Int? = nil) throws -> (index: TimeIndex, refresh: TimeIndexRefresh) {
        let log = try Self.openIndexed(logDirectory)
        try afterOpeningLog?()
        let head = log.head.position
        do {
            if let answer = try storedAndUpdated(log: log, head: head, overlayLimit: overlayLimit) { return answer }
            if let answer = try derivedTimeIndex(log: log, head: head, overlayLimit: overlayLimit) { return answer }
        } catch is ProjectionReader.Unreadable {
            // A block of the stored base failed its checks while merging: built again below.
        }
        return try rebuiltTimeIndex(head: head, log: log)
    }

    /// The stored index brought to `head`, or nil when there is none that goes with the log.
    private func storedAndUpdated(log: EventLog, head: UInt64, overlayLimit: Int?) throws -> (index: TimeIndex, refresh: TimeIndexRefresh)? {
        var refresh = TimeIndexRefresh()
        if var index = try storedTimeIndex(), try reaches(log, index.fingerprint, index.position, index.hash) {
            if let o = try storedTimeIndexOverlay(), o.basePosition == index.position, o.baseHash == index.hash,
               try reaches(log, o.header.fingerprint, o.header.position, o.header.hash) {
                index = index.with(overlay: o.steps, magnitude: o.magnitude, firstEvent: o.firstEvent,
                                   position: o.header.position, hash: o.header.hash)
            }
            if index.position == head { return (index, refresh) }
            let (updated, update) = try index.updated(log: log, profile: profile, overlayLimit: overlayLimit)
            refresh.update = update
            // Caches of the log: if one cannot be saved, the answer stands and the next query updates again.
            if update.compacted {
                refresh.wrote = (try? updated.write(path: timeIndexPath)) != nil
                if refresh.wrote { try? DurableFile.remove(path: timeIndexOverlayPath) }
            } else {
                refresh.wrote = (try? updated.writeOverlay(path: timeIndexOverlayPath)) != nil
            }
            return (updated, refresh)
        }
        return nil
    }

    /// The index derived from one kept under another profile (`TimeIndex.derived`), and saved; nil
    /// when none can be. A kept index qualifies when its file names a profile of this app whose
    /// fingerprint, computed here, is the one the file was built under (same rules code and
    /// options), it goes with the log as `storedAndUpdated` checks (and is brought to the head
    /// the same way), and the change from its profile to this one does not reach everyone
    /// (`ProfileChange`). Of those, the one whose change reaches the fewest kinds of events is
    /// used (then the first by file name), unless the users it reaches hold more than
    /// `derivationShare` of the log's events (then the next, or a build).
    private func derivedTimeIndex(log: EventLog, head: UInt64, overlayLimit: Int?) throws -> (index: TimeIndex, refresh: TimeIndexRefresh)? {
        for (source, change) in derivationSources() {
            guard let (base, _) = try source.storedAndUpdated(log: log, head: head, overlayLimit: overlayLimit),
                  case (let index, var derivation)? = try base.derived(directory: logDirectory, log: log, old: source.profile, new: profile, change: change,
                                                             fingerprint: timeIndexFingerprint, profileJSON: profile.encodedJSON(),
                                                             partitions: partitions, share: derivationShare) else { continue }
            var refresh = TimeIndexRefresh()
            derivation.from = source.profile.name
            refresh.derivation = derivation
            // A cache of the log: if it cannot be saved, the answer stands and the next query derives again.
            refresh.wrote = (try? index.write(path: timeIndexPath)) != nil
            if refresh.wrote { try? DurableFile.remove(path: timeIndexOverlayPath) }
            return (index, refresh)
        }
        return nil
    }

    /// The kept indexes of other profiles this one's could be derived from, in the order they are
    /// tried (see `derivedTimeIndex`), with the change from each one's profile; whether each goes
    /// with the log is checked when it is tried.
    private func derivationSources() -> [(source: ProjectionStore, change: ProfileChange)] {
        // (Rules fingerprinted for a test stand for other rules code: nothing kept is derived from.)
        guard rulesFingerprint == nil, let names = try? PlatformDirectory.list(logDirectory + "/projections") else { return [] }
        var candidates: [(source: ProjectionStore, change: ProfileChange)] = []
        for name in names.sorted() where name.hasSuffix(".timeindex") {
            let path = logDirectory + "/projections/" + name
            guard path != timeIndexPath, let kept = try? TimeIndex.read(path: path),
                  let old = try? Profile.decode(json: Array(kept.profileJSON.utf8)), old.app == profile.app else { continue }
            let change = ProfileChange(from: old, to: profile)
            var source = ProjectionStore(logDirectory: logDirectory, profile: old)
            source.partitions = partitions
            source.timeIndexWithSandbox = timeIndexWithSandbox
            guard !change.reachesEveryone, source.timeIndexPath == path, kept.fingerprint == source.timeIndexFingerprint else { continue }
            candidates.append((source, change))
        }
        // (A stable sort: equal reaches stay in file name order.)
        return candidates.enumerated().sorted { ($0.element.change.eventTypes.count, $0.offset) < ($1.element.change.eventTypes.count, $1.offset) }
            .map(\.element)
    }

    /// Whether this profile's time index is kept, or could be derived from one kept under another
    /// profile: then it answers as of any instant, now included, without folding every user.
    public var timeIndexAtHand: Bool { PlatformDirectory.exists(timeIndexPath) || !derivationSources().isEmpty }

    /// The index built from the log as of `head` (through the event cache), and saved: through
    /// `log` when given (a handle open at `head`), else through a handle of its own.
    private func rebuiltTimeIndex(head: UInt64? = nil, log: EventLog? = nil) throws -> (index: TimeIndex, refresh: TimeIndexRefresh) {
        let index = try log.map { try TimeIndex.build(log: $0, directory: logDirectory, profile: profile, fingerprint: timeIndexFingerprint,
                                                      partitions: partitions) }
            ?? TimeIndex.build(directory: logDirectory, profile: profile, fingerprint: timeIndexFingerprint, partitions: partitions, through: head)
        var refresh = TimeIndexRefresh()
        refresh.rebuilt = true
        refresh.wrote = (try? index.write(path: timeIndexPath)) != nil
        if refresh.wrote { try? DurableFile.remove(path: timeIndexOverlayPath) }
        return (index, refresh)
    }

    /// What `body` reads from the time index (`index`, or the one `refreshedTimeIndex` gives), and
    /// what bringing it up cost. A stored block that fails its checks while `body` reads it is
    /// never served: the index is built again from the log, saved, and `body` asked again.
    public func answer<R>(from index: TimeIndex? = nil, _ body: (TimeIndex) throws -> R) throws -> (answer: R, refresh: TimeIndexRefresh) {
        let (index, refresh) = try index.map { ($0, TimeIndexRefresh()) } ?? refreshedTimeIndex()
        do {
            return (try body(index), refresh)
        } catch is ProjectionReader.Unreadable {
            let (rebuilt, again) = try rebuiltTimeIndex(head: index.position)
            return (try body(rebuilt), again)
        }
    }

    /// Whether a file of `fingerprint` covering `position` with chain hash `hash` goes with this store and `log`.
    private func reaches(_ log: EventLog, _ fingerprint: String, _ position: UInt64, _ hash: EventStore.SHA256.Digest) throws -> Bool {
        fingerprint == timeIndexFingerprint && position <= log.head.position && (try? log.chainHash(at: position)) == hash
    }

    /// The stored base, or nil when there is none or it is not whole (then it is rebuilt).
    func storedTimeIndex() throws -> TimeIndex? {
        do {
            return try TimeIndex.read(path: timeIndexPath)
        } catch is ProjectionReader.Unreadable {
            return nil
        }
    }

    /// The stored overlay, or nil when there is none or it is not whole (then the base is brought up from its own head).
    func storedTimeIndexOverlay() throws -> TimeIndex.StoredOverlay? {
        do {
            return try TimeIndex.readOverlay(path: timeIndexOverlayPath)
        } catch is ProjectionReader.Unreadable {
            return nil
        }
    }
}
