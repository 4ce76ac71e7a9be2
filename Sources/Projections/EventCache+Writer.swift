import SubscriptionDomain

extension EventCache {
    /// Writes events in the cache's form into `out`: strings that many events share (users,
    /// products, currencies, contexts...) are written once and then named by their number.
    struct Writer {
        var out = ProjectionWriter()
        /// The event being written, before its length is known.
        var body = ProjectionWriter(capacity: 4096)
        /// The shared strings met so far, numbered in the order they came (FNV-1a, no SipHash).
        private var numbers = UserTable<SharedString>()
        private var fresh: [String] = []

        /// The number of a shared string, given it the first time it is seen.
        mutating func number(_ s: String) -> Int {
            let known = numbers.count
            let n = numbers.slot(adding: s)
            if numbers.count > known { fresh.append(s) }
            return n
        }

        /// Appends one event and the time the log recorded it (milliseconds).
        mutating func append(_ e: Event, recorded: Int64) {
            let user = number(e.user)
            writeBody(e, recorded: recorded)
            out.array(fresh) { w, s in w.string(s) }
            fresh.removeAll(keepingCapacity: true)
            out.count(user)
            out.count(body.bytes.count)
            out.raw(body.bytes)
            body.removeAll()
        }
    }
}

/// A string the event cache numbers, kept in a `UserTable` for its fast lookup by bytes.
struct SharedString: UserKeyed {
    let user: String
    init(user: String) { self.user = user }
}
