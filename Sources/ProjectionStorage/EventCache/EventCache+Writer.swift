import Projections
import SubscriptionDomain

extension EventCache {
    /// Gathers the log's events in the cache's binary form, then writes them user by user, each
    /// user's events in effect order. Bodies are kept in chunks (growing never copies what is
    /// written), with 24 bytes per event to find and order them.
    struct Writer {
        static let chunkSize = 8 << 20
        /// The chunk being filled: event bodies, one after the other.
        var body = ProjectionWriter(capacity: chunkSize)
        private var chunks: [[UInt8]] = []
        private var located: [Located] = []
        /// Users numbered in the order they came, with their number of events, latest time, and
        /// whether an event came after a later-timed one (then their events are sorted by time).
        private var users = UserTable<SharedString>()
        private var eventsPerUser: [Int32] = []
        private var latest: [Int64] = []
        private var outOfOrder: [Bool] = []
        /// The types of each user's events (`typeBit`).
        private var types: [UInt64] = []
        /// The shared strings met so far, numbered in the order they came (FNV-1a, no SipHash).
        private var numbers = UserTable<SharedString>()

        /// Where an event's body is, whose it is, and its time.
        private struct Located {
            var chunk: UInt32
            var offset: UInt32
            var length: UInt32
            var user: Int32
            var time: Int64
        }

        init(events: Int) { located.reserveCapacity(events) }

        /// The number of a shared string, given it the first time it is seen.
        mutating func number(_ s: String) -> Int { numbers.slot(adding: s) }

        /// Appends the next event of the log and the time the log recorded it (milliseconds).
        mutating func append(_ e: Event, recorded: Int64) {
            let known = users.count
            let user = users.slot(adding: e.user)
            if users.count > known {
                eventsPerUser.append(0)
                latest.append(e.time.nanoseconds)
                outOfOrder.append(false)
                types.append(0)
            }
            eventsPerUser[user] += 1
            types[user] |= EventCache.typeBit(e.type)
            if e.time.nanoseconds < latest[user] { outOfOrder[user] = true }
            latest[user] = max(latest[user], e.time.nanoseconds)
            let start = body.bytes.count
            writeBody(e, recorded: recorded)
            located.append(Located(chunk: UInt32(chunks.count), offset: UInt32(start), length: UInt32(body.bytes.count - start),
                                   user: Int32(user), time: e.time.nanoseconds))
            if body.bytes.count >= Self.chunkSize - 4096 { sealChunk() }
        }

        private mutating func sealChunk() {
            chunks.append(body.bytes)
            body = ProjectionWriter(capacity: Self.chunkSize)
        }

        /// Writes the shared strings, the number of users and per type code the events of the users
        /// with an event of that type, then every user's id, number of events, the types of their
        /// events, block length and events (log position and body), in the order users came; flushes `out` into `file` as it goes.
        mutating func write(into out: inout ProjectionWriter, file: inout ChecksummedReplacement) throws {
            sealChunk()
            out.array(numbers.folds) { w, s in w.string(s.user) }
            out.count(users.count)
            // Per type, the events of the users with one of that type (a reader's census without reading the users).
            var eventsOfUsersWith = [Int](repeating: 0, count: EventCache.typeCodeCount)
            for u in 0..<users.count {
                for t in eventsOfUsersWith.indices where types[u] >> UInt64(t) & 1 == 1 { eventsOfUsersWith[t] += Int(eventsPerUser[u]) }
            }
            for n in eventsOfUsersWith { out.count(n) }
            // Events grouped by user (a counting sort keeps log order), then sorted by time where needed.
            var next = [Int](repeating: 0, count: users.count + 1)
            for u in 0..<users.count { next[u + 1] = next[u] + Int(eventsPerUser[u]) }
            let starts = next
            var order = [Int32](repeating: 0, count: located.count)
            for i in located.indices {
                let u = Int(located[i].user)
                order[next[u]] = Int32(i)
                next[u] += 1
            }
            for u in 0..<users.count where outOfOrder[u] {
                order[starts[u]..<starts[u + 1]].sort { a, b in
                    located[Int(a)].time != located[Int(b)].time ? located[Int(a)].time < located[Int(b)].time : a < b
                }
            }
            var block = ProjectionWriter(capacity: 1 << 16)
            for u in 0..<users.count {
                for i in order[starts[u]..<starts[u + 1]] {
                    let at = located[Int(i)]
                    block.count(Int(i) + 1)
                    chunks[Int(at.chunk)].withUnsafeBytes { block.raw(UnsafeRawBufferPointer(rebasing: $0[Int(at.offset)..<Int(at.offset + at.length)])) }
                }
                out.string(users[slot: u].user)
                out.count(Int(eventsPerUser[u]))
                out.varint(types[u])
                out.count(block.bytes.count)
                out.raw(block.bytes)
                block.removeAll()
                if out.bytes.count >= 1 << 20 { try file.flush(&out) }
            }
        }
    }
}

/// A string the event cache numbers, kept in a `UserTable` for its fast lookup by bytes.
struct SharedString: UserKeyed {
    let user: String
    init(user: String) { self.user = user }
}
