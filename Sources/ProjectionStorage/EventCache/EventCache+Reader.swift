import Projections
import EventStore
import SubscriptionDomain
import Platform

extension EventCache {
    /// Reads the cache user by user. `nextUser(where:types:)` moves to the next user the caller
    /// wants, by id and by the types of their events (passing over the others' events unread),
    /// whose events `nextEvent(into:)` then gives in
    /// effect order (all fields but the user, which the caller sets once per user);
    /// `skipUser()` passes over the rest of them; `finish()` checks the CRC.
    /// Until `finish()` returns, what was read may come from a damaged file: callers drop it if it throws.
    struct Reader {
        var r: ProjectionReader
        /// The log head the cache was built at.
        let head: LogHead
        /// How many events the file holds (one per log position, from 1).
        let count: Int
        /// How many users.
        let userCount: Int
        /// Per event type (by code), how many events the users with an event of that type hold.
        let eventsOfUsersWith: [Int]
        /// The shared strings, by number.
        let strings: [String]
        /// The code tables (EventCache+Codes.swift), held here so that reading an event touches no global.
        let codes = EventCache.CodeTables()
        /// The data slots each event is read into, reused.
        var fields = EventFields()
        /// Whether events are read with their ids: a walk that reads none passes them over (each
        /// was a string made and let go per event).
        var readsIDs = true
        private var usersRead = 0
        private var eventsRead = 0
        /// The user's events not yet read, and where their block ends.
        private var eventsLeft = 0
        private var blockEnd = 0
        /// The types of the user's events as their entry gives them, and as read so far (`typeBit`).
        private var userTypes: UInt64 = 0
        private var typesRead: UInt64 = 0

        /// An event to read into: `nextEvent(into:)` sets every field but the user.
        static let blank = Event(id: "", type: .accountCreated, user: "", time: Timestamp(nanoseconds: 0))

        /// Reads the header; throws `ProjectionReader.Unreadable` if it is not a cache file of this code version.
        init(source: DurableFile.Source) throws {
            r = ProjectionReader(source: source)
            guard try r.raw(EventCache.magic.count) == EventCache.magic else { throw r.unreadable("not an event cache") }
            let version = try r.count()
            guard version == EventCache.codeVersion else { throw r.unreadable("code version \(version), not \(EventCache.codeVersion)") }
            let layout = try r.string()
            guard layout == EventCache.layoutDigest else { throw r.unreadable("event layout \(layout), not \(EventCache.layoutDigest)") }
            let position = UInt64(bitPattern: try r.int64())
            head = LogHead(position: position, hash: SHA256.Digest(bytes: try r.raw(32)))
            count = try r.count()
            guard UInt64(count) == position else { throw r.unreadable("\(count) events for head position \(position)") }
            strings = try r.array { try $0.string() }
            userCount = try r.count()
            var perType: [Int] = []
            for _ in 0..<EventCache.typeCodeCount {
                let n = try r.count()
                guard n <= count else { throw r.unreadable("\(n) events of the users with a type, of \(count)") }
                perType.append(n)
            }
            eventsOfUsersWith = perType
        }

        /// Moves to the next user for whom `take` (given the id's UTF-8 bytes) holds and who has an
        /// event of one of `types` (bits `typeBit`; default: any), passing over the events of the
        /// others; returns their id, or nil after the last user.
        mutating func nextUser(where take: (UnsafeRawBufferPointer) -> Bool, types: UInt64 = .max) throws -> String? {
            guard eventsLeft == 0, r.offset == blockEnd || usersRead == 0 else { throw r.unreadable("a user's events were left unread") }
            while usersRead < userCount {
                let (id, events) = try entry(take)
                if let id, userTypes & types != 0 {
                    eventsLeft = events
                    typesRead = 0
                    return id
                }
                try r.skip(blockEnd - r.offset)
            }
            return nil
        }

        /// How many events the users with an event of one of `types` hold at most (the header's
        /// count per type, summed: a user with several of them is counted for each).
        func eventCount(ofUsersWith types: UInt64) -> Int {
            min(count, eventsOfUsersWith.indices.reduce(0) { types >> UInt64($1) & 1 == 1 ? $0 + eventsOfUsersWith[$1] : $0 })
        }

        /// Reads the next user's entry up to their events: the id (when `take` holds for its bytes),
        /// the number of their events; sets their types and where their block ends.
        private mutating func entry(_ take: (UnsafeRawBufferPointer) -> Bool) throws -> (id: String?, events: Int) {
            usersRead += 1
            let id = try r.bytes(try r.count()) { take($0) ? String(decoding: $0, as: UTF8.self) : nil }
            let events = try r.count()
            guard events > 0, events <= count - eventsRead else { throw r.unreadable("\(events) events for a user, \(count - eventsRead) left") }
            eventsRead += events
            userTypes = try r.varint()
            guard userTypes != 0, userTypes >> UInt64(EventCache.typeCodeCount) == 0 else { throw r.unreadable("event types \(userTypes) for a user") }
            let length = try r.count()
            blockEnd = r.offset + length
            return (id, events)
        }

        /// Reads the user's next event into `e` (every field but the user, and the id as `readsIDs`
        /// says); returns its log position and
        /// when the log recorded it (milliseconds), or nil after their last event.
        mutating func nextEvent(into e: inout Event) throws -> (position: UInt64, recorded: Int64)? {
            guard eventsLeft > 0 else {
                guard r.offset == blockEnd else { throw r.unreadable("a user's events end \(blockEnd - r.offset) bytes before their block") }
                guard typesRead == userTypes else { throw r.unreadable("a user's events are of types \(typesRead), their entry gives \(userTypes)") }
                return nil
            }
            eventsLeft -= 1
            let position = try r.varint()
            guard position >= 1, position <= head.position else { throw r.unreadable("log position \(position) of \(head.position)") }
            let recorded = try readBody(into: &e)
            typesRead |= EventCache.typeBit(e.type)
            guard r.offset <= blockEnd else { throw r.unreadable("a user's events run \(r.offset - blockEnd) bytes past their block") }
            return (position, recorded)
        }

        /// Passes over the rest of the user's events.
        mutating func skipUser() throws {
            try r.skip(blockEnd - r.offset)
            eventsLeft = 0
        }

        /// The shared string numbered by the next varint.
        mutating func sharedString() throws -> String {
            let n = try r.count()
            guard n < strings.count else { throw r.unreadable("string \(n) of \(strings.count)") }
            return strings[n]
        }

        /// Checks that every user was read and that the file ends there with the CRC of everything before.
        mutating func finish() throws {
            guard usersRead == userCount, eventsRead == count, eventsLeft == 0 else {
                throw r.unreadable("finished after \(usersRead) of \(userCount) users, \(eventsRead) of \(count) events")
            }
            try r.checkCRCTrailer(after: "the last user")
        }
    }
}
