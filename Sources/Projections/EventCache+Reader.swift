import EventStore
import SubscriptionDomain

extension EventCache {
    /// Reads the cache's events in log order. `nextUser()` gives the user of the next event, which
    /// is then read with `event()` or passed over with `skipEvent()`; `finish()` checks the CRC.
    /// Until `finish()` returns, what was read may come from a damaged file: callers drop it if it throws.
    struct Reader {
        var r: ProjectionReader
        let codeVersion: Int
        /// The log head the cache was built at.
        let head: LogHead
        /// How many events the file holds (one per log position, from 1).
        let count: Int
        /// The shared strings met so far, by number.
        private(set) var strings: [String] = []
        /// The log position of the event `nextUser()` announced.
        private(set) var position: UInt64 = 0
        private var bodyLength = 0

        /// An event to read into: `event(user:into:)` sets every field.
        static let blank = Event(id: "", type: .accountCreated, user: "", time: Timestamp(nanoseconds: 0))

        /// Reads the header; throws `ProjectionReader.Unreadable` if it is not a cache file.
        init(source: DurableFile.Source) throws {
            r = ProjectionReader(source: source)
            guard try r.raw(EventCache.magic.count) == EventCache.magic else { throw r.unreadable("not an event cache") }
            codeVersion = try r.count()
            let position = UInt64(bitPattern: try r.int64())
            head = LogHead(position: position, hash: SHA256.Digest(bytes: try r.raw(32)))
            count = try r.count()
            guard UInt64(count) == position else { throw r.unreadable("\(count) events for head position \(position)") }
        }

        /// The number of the next event's user among `strings`, or nil after the last event.
        mutating func nextUser() throws -> Int? {
            guard position < UInt64(count) else { return nil }
            position += 1
            for _ in 0..<(try r.count()) { strings.append(try r.string()) }
            let user = try r.count()
            guard user < strings.count else { throw r.unreadable("user \(user) of \(strings.count) strings") }
            bodyLength = try r.count()
            return user
        }

        /// Passes over the event `nextUser()` announced.
        mutating func skipEvent() throws { try r.skip(bodyLength) }

        /// Reads the event `nextUser()` announced into `e` (every field set); returns when the
        /// log recorded it (milliseconds).
        mutating func event(user: Int, into e: inout Event) throws -> Int64 {
            let start = r.offset
            e.user = strings[user]
            let recorded = try readBody(into: &e)
            guard r.offset - start == bodyLength else { throw r.unreadable("event of \(r.offset - start) bytes, \(bodyLength) announced") }
            return recorded
        }

        /// The event `nextUser()` announced, as stored in the log.
        mutating func event(user: Int) throws -> StoredEvent {
            var e = Self.blank
            let recorded = try event(user: user, into: &e)
            return StoredEvent(event: e, position: position, recorded: Timestamp(milliseconds: recorded))
        }

        /// The shared string numbered by the next varint.
        mutating func sharedString() throws -> String {
            let n = try r.count()
            guard n < strings.count else { throw r.unreadable("string \(n) of \(strings.count)") }
            return strings[n]
        }

        /// Checks that the file ends after the last event with the CRC of everything before.
        mutating func finish() throws {
            guard position == UInt64(count) else { throw r.unreadable("finished after \(position) of \(count) events") }
            try r.checkCRCTrailer(after: "the last event")
        }
    }
}
