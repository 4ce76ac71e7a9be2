/// A numeric IPv4 or IPv6 address and a TCP port.
public struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host, e.g. `127.0.0.1` or `::1` (`localhost` is taken as `127.0.0.1`).
    public let host: String
    /// The TCP port; 0 asks the kernel for a free one when binding.
    public let port: UInt16

    /// An address from a numeric host (or `localhost`) and a port.
    public init(host: String, port: UInt16) {
        self.host = host == "localhost" ? "127.0.0.1" : host
        self.port = port
    }

    /// `127.0.0.1:8080`, or `[::1]:8080` for IPv6.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
