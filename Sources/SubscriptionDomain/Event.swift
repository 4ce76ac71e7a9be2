/// One event of the catalog, as written in a JSON line (CONTRACT.md §1).
public struct Event: Sendable, Equatable {
    /// The idempotency key.
    public var id: String
    /// The app user id: the log's stream key.
    public var user: String
    /// When it happened.
    public var time: Timestamp
    public var source: EventSource?
    /// The type and its typed fields.
    public private(set) var data: EventData
    /// The `data` fields that are not the type's, kept verbatim. Set with the data only, since a
    /// payload reads its store fields (`StoreField`) from these.
    public private(set) var extra: EventData.Extra

    /// The event type (`data`'s, kept beside it: the read models ask it of every event).
    public private(set) var type: EventType

    public init(id: String, user: String, time: Timestamp, source: EventSource? = nil, data: EventData, extra: EventData.Extra = .init()) {
        self.id = id
        self.user = user
        self.time = time
        self.source = source
        self.data = data
        self.type = data.type
        self.extra = extra
    }

    /// An event built field by field (store mappings, generators, tests): `fields` must hold the
    /// type's required fields (`type.firstMissingField(in:)`, which builders check first); other
    /// catalog fields go to `extra` as off-type fields.
    public init(id: String, type: EventType, user: String, time: Timestamp, source: EventSource? = nil, fields: EventFields = EventFields()) {
        var f = fields
        let present = f.presentMask
        guard let data = EventData(type: type, taking: &f) else {
            preconditionFailure("a \(type.rawValue) event built without data.\(type.firstMissingField(in: fields)?.rawValue ?? "?")")
        }
        self.init(id: id, user: user, time: time, source: source, data: data, extra: EventData.Extra(leftover: &f, present: present & ~type.fields.mask))
    }

    /// An event from its type and its data slots, as the codecs read them (`type` may come after
    /// `data`): the type takes its fields, the rest is kept as off-type fields. `present` holds
    /// the bits (`EventField.bit`) of the catalog fields set in `fields`. Nil when a required
    /// field is missing.
    public init?(id: String, user: String, time: Timestamp, source: EventSource?, type: EventType, taking fields: inout EventFields, present: UInt32) {
        self.init(id: id, user: user, time: time, source: source, data: .accountCreated)
        guard take(type, from: &fields, present: present, offType: present & ~type.fields.mask) else { return nil }
    }

    /// Gives the event the type `type` and its data from the slots `fields` (bits `present`), off-type
    /// fields (bits `offType`) and unknown ones, leaving `fields` empty; false (and the event as it
    /// was) when a required field is missing. For readers that reuse one event and one set of slots.
    public mutating func take(_ type: EventType, from fields: inout EventFields, present: UInt32, offType: UInt32) -> Bool {
        guard let data = EventData(type: type, taking: &fields) else { return false }
        self.data = data
        self.type = type
        if offType != 0 || !fields.extra.isEmpty {
            extra = EventData.Extra(leftover: &fields, present: offType)
        } else if !extra.isEmpty {
            extra = EventData.Extra()
        }
        return true
    }

    /// Every `data` field the line holds, the type's and off-type ones, by name: for the import
    /// door's checks (ranges, catalog) and for tests. The rules read the typed `data`.
    public var allFields: EventFields {
        var f = EventFields()
        data.put(into: &f)
        for x in extra.offType { f[x.field] = x.value }
        f.extra = extra.unknown
        return f
    }
}
