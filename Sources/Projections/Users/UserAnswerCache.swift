import Synchronization
import SubscriptionDomain

/// Answers kept per user (`serve`'s entitlements): an answer built from the user's records, read
/// through the indexes and checked (CRC, chain link) like any other read, and the instant until
/// which it stays true without a new record (`validUntil`: `UserHistory.nextChange`).
///
/// An answer is dropped when a commit appends a record that can change it
/// (`Replay.affectedUsers`: the record's stream, a transfer's recipient, an alias's identified id,
/// and every user whose answer read that stream). The writer drops them before it acknowledges
/// the writes, so a client that got its acknowledgment reads its own write. An answer built while
/// a commit was dropping answers is not kept (`generation`): its read may have missed that commit.
public final class UserAnswerCache<Answer: Sendable>: Sendable {
    /// One kept answer.
    @frozen public struct Entry: Sendable {
        public var answer: Answer
        /// The answer is true for any instant before this one (nil: until a record changes it).
        public var validUntil: Timestamp?
        /// The streams it was built from (`UserHistory.sources`).
        public var sources: [String]

        public init(answer: Answer, validUntil: Timestamp?, sources: [String]) {
            self.answer = answer
            self.validUntil = validUntil
            self.sources = sources
        }
    }

    // Inlinable, so that a client's use is specialized for its `Answer` (a lookup is on a
    // server's I/O thread for every request it answers from here).
    @usableFromInline struct State {
        @usableFromInline var entries: [String: Entry] = [:]
        /// Stream → the users whose kept answers read it besides their own (aliases, transfer senders).
        @usableFromInline var readers: [String: Set<String>] = [:]
        /// Bumped by every `drop`.
        @usableFromInline var generation: UInt64 = 0
        @usableFromInline init() {}
    }

    @usableFromInline let state = Mutex(State())
    /// The most answers kept; past it, arbitrary ones are dropped.
    public let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = max(1, capacity) }

    /// The generation to pass to `keep` for an answer whose read starts now.
    @inlinable public var generation: UInt64 { state.withLock { $0.generation } }

    /// The kept answer for `user`, if it is still true at `now`.
    @inlinable public func answer(for user: String, at now: Timestamp) -> Answer? {
        state.withLock { s in
            guard let e = s.entries[user] else { return nil }
            if let until = e.validUntil, now >= until {
                s.entries[user] = nil
                return nil
            }
            return e.answer
        }
    }

    /// Keeps an answer whose read began at `generation`; a drop since then discards it.
    @inlinable public func keep(_ entry: Entry, for user: String, builtAt generation: UInt64) {
        state.withLock { s in
            guard s.generation == generation else { return }
            if s.entries[user] == nil, s.entries.count >= capacity {
                s.entries.remove(at: s.entries.startIndex)
                // Dependencies are never forgotten while an answer that needs them is kept.
                if s.readers.count >= capacity { s.entries = [:]; s.readers = [:] }
            }
            s.entries[user] = entry
            for source in entry.sources where source != user { s.readers[source, default: []].insert(user) }
        }
    }

    /// Drops the answers that records appended for `users` can change.
    @inlinable public func drop(_ users: some Sequence<String>) {
        state.withLock { s in
            s.generation &+= 1
            for user in users {
                s.entries[user] = nil
                if let readers = s.readers.removeValue(forKey: user) {
                    for r in readers { s.entries[r] = nil }
                }
            }
        }
    }

    /// Drops every kept answer (records were appended that this cache was not told of).
    @inlinable public func dropAll() {
        state.withLock { s in
            s.generation &+= 1
            s.entries = [:]
            s.readers = [:]
        }
    }

    /// How many answers are kept.
    @inlinable public var count: Int { state.withLock { $0.entries.count } }
}
