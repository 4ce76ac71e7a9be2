extension EventData {
    /// The `data` fields that are not the type's, kept so that the canonical line is written back
    /// byte for byte: unknown fields (raw JSON, in their order, after the catalog's) and catalog
    /// fields off their type (such as a `price` on a `cancellation`, checked as their field and
    /// written where the catalog's order puts them). The rules read none of them: the two store
    /// fields the contract does not list (`StoreField`) stay here as written, and the payloads that
    /// hold them read them into typed values.
    public struct Extra: Sendable, Equatable {
        public var unknown: [ExtraField]
        public var offType: [OffTypeField]

        public init(unknown: [ExtraField] = [], offType: [OffTypeField] = []) {
            self.unknown = unknown
            self.offType = offType
        }

        /// Moves the off-type fields (the bits of `offType`, in catalog order) and the unknown
        /// fields out of `f`, once the type has taken its own (`EventData(type:taking:)`).
        public init(leftover f: inout EventFields, present offType: UInt32) {
            unknown = f.extra
            f.extra = []
            self.offType = []
            guard offType != 0 else { return }
            let present = offType
            for (i, field) in EventField.cases.enumerated() where present & (1 << UInt32(i)) != 0 {
                if let value = f[field] { self.offType.append(OffTypeField(field: field, value: value)); f[field] = nil }
            }
        }

        public var isEmpty: Bool { unknown.isEmpty && offType.isEmpty }
    }

    /// An unknown `data` field kept verbatim.
    public struct ExtraField: Sendable, Equatable {
        public var name: String
        public var rawJSON: String
        public init(name: String, rawJSON: String) { self.name = name; self.rawJSON = rawJSON }
    }

    /// A catalog field on an event whose type does not hold it.
    public struct OffTypeField: Sendable, Equatable {
        public var field: EventField
        public var value: FieldValue
        public init(field: EventField, value: FieldValue) { self.field = field; self.value = value }
    }
}
