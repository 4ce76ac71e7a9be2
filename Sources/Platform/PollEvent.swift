/// What a descriptor registered with an event poll is waited on for.
public struct PollInterest: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    /// Makes a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// Wake when there is something to read (or the peer closed).
    public static let readable = PollInterest(rawValue: 1)
    /// Wake when a write would not block.
    public static let writable = PollInterest(rawValue: 2)
}

/// One readiness report from `SocketCalls.wait(poll:into:timeoutMilliseconds:)`.
public struct PollEvent: Sendable, Hashable {
    /// The token the descriptor was registered with.
    public var token: UInt64
    /// Something to read, or end of stream.
    public var readable: Bool
    /// A write would not block.
    public var writable: Bool
    /// The peer hung up or the socket has an error pending.
    public var failed: Bool

    /// Makes an event (for buffers).
    public init(token: UInt64 = 0, readable: Bool = false, writable: Bool = false, failed: Bool = false) {
        self.token = token
        self.readable = readable
        self.writable = writable
        self.failed = failed
    }
}
