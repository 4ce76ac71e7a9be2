/// The sizes past which a request is refused.
public struct HTTPRequestLimits: Sendable, Equatable {
    /// The request line plus header fields plus the blank line, in bytes (431 past it).
    /// Also bounds a chunked body's trailer section.
    public var maxHeaderBytes: Int
    /// How many header fields a request may carry (431 past it).
    public var maxHeaderCount: Int
    /// The largest body, announced by Content-Length or decoded from chunks (413 past it).
    public var maxBodyBytes: Int

    /// 16 KiB of header block, 100 fields, 1 MiB of body by default.
    public init(maxHeaderBytes: Int = 16 * 1024, maxHeaderCount: Int = 100, maxBodyBytes: Int = 1024 * 1024) {
        self.maxHeaderBytes = maxHeaderBytes
        self.maxHeaderCount = maxHeaderCount
        self.maxBodyBytes = maxBodyBytes
    }
}
