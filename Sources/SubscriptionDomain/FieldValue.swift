/// One `data` field's value, of its field's `EventField.Kind`: what the codecs read and write
/// field by field, without a line per field.
public enum FieldValue: Sendable, Equatable {
    case string(String)
    case time(Timestamp)
    case money(Money)
    case int(Int)
    case bool(Bool)
    case offer(Offer)
    case environment(StoreEnvironment)
    case timing(ChangeTiming)

    var string: String? { if case .string(let v) = self { v } else { nil } }
    var time: Timestamp? { if case .time(let v) = self { v } else { nil } }
    var money: Money? { if case .money(let v) = self { v } else { nil } }
    var int: Int? { if case .int(let v) = self { v } else { nil } }
    var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
    var offer: Offer? { if case .offer(let v) = self { v } else { nil } }
    var environment: StoreEnvironment? { if case .environment(let v) = self { v } else { nil } }
    var timing: ChangeTiming? { if case .timing(let v) = self { v } else { nil } }
}
