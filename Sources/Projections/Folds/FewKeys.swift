/// A map for the handful of keys a report groups by (currencies, paywall contexts): searched
/// linearly, since comparing a short string is cheaper than hashing it once per user.
struct FewKeys<Value> {
    private(set) var keys: [String] = []
    private(set) var values: [Value] = []

    /// The value for `key`, created from `initial` the first time.
    subscript(key: String, default initial: @autoclosure () -> Value) -> Value {
        get { keys.firstIndex(of: key).map { values[$0] } ?? initial() }
        _modify {
            let i = keys.firstIndex(of: key) ?? {
                keys.append(key)
                values.append(initial())
                return keys.count - 1
            }()
            yield &values[i]
        }
    }

    /// The entries as a dictionary, for the report.
    var dictionary: [String: Value] { Dictionary(uniqueKeysWithValues: zip(keys, values)) }
}

extension FewKeys: Sendable where Value: Sendable {}
