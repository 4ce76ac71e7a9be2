import SubscriptionDomain
extension EventCodec {
    /// Decodes lines one after another, reusing one set of `data` slots (`EventFields`): a line's
    /// type takes its fields out of them and the rest go to the event's `extra`, so they are empty
    /// again for the next line. Fresh slots for each line cost their destruction, a dozen empty
    /// string slots (about a tenth of a line's decoding). For replay's and the cache's loops.
    public struct LineDecoder: Sendable {
        private var slots = EventFields()

        public init() {}

        /// Decodes one line (as `EventCodec.decode(_:)`).
        public mutating func decode(_ line: UnsafeRawBufferPointer) throws(EventDecodingError) -> Event {
            var event = Event(id: "", user: "", time: Timestamp(nanoseconds: 0), data: .accountCreated)
            do {
                try EventCodec.decode(line, into: &event, slots: &slots)
            } catch {
                slots = EventFields()   // the refused line's fields
                throw error
            }
            assert(slots == EventFields(), "a type left data fields in the slots: \(slots)")
            return event
        }
    }
}
