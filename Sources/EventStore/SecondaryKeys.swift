/// Keys other than its stream under which a record is found (`EventLog.records(withKey:)`): the
/// caller's function of a record's stream and payload, e.g. the user a transfer names. The log
/// knows nothing of what they mean; it indexes them beside streams, in files that name the
/// function (`name`), so index files built with another function are not used.
public struct SecondaryKeys: Sendable {
    /// Names the function and its version; change it whenever `keys` changes what it returns.
    public var name: String
    /// The keys of one record (none for most), from its stream and payload bytes.
    public var keys: @Sendable (_ stream: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> [String]

    public init(name: String, keys: @escaping @Sendable (_ stream: UnsafeRawBufferPointer, _ payload: UnsafeRawBufferPointer) -> [String]) {
        self.name = name
        self.keys = keys
    }
}
