/// The protocol versions the server speaks.
public enum HTTPVersion: String, Sendable, Equatable {
    /// HTTP/1.0: the connection closes after the response unless the client asks `Connection: keep-alive`.
    case http1_0 = "HTTP/1.0"
    /// HTTP/1.1: the connection stays open unless either side says `Connection: close`.
    case http1_1 = "HTTP/1.1"
}

/// One parsed request: method, decoded path and query, headers and the whole body.
public struct HTTPRequest: Sendable, Equatable {
    /// The method token as sent (case-sensitive: `GET`, `POST`, ...).
    public var method: String
    /// The request target exactly as sent (`/v1/entitlements?user=a%20b`).
    public var target: String
    /// The path, percent-decoded (UTF-8), e.g. `/v1/entitlements`. `+` stays `+`.
    public var path: String
    /// The query's name/value pairs in order, `+` read as a space, then percent-decoded.
    /// A pair without `=` has an empty value; empty pieces (`a=1&&b=2`) are skipped.
    public var query: [(String, String)]
    /// HTTP/1.0 or HTTP/1.1.
    public var version: HTTPVersion
    /// The header fields; look up with `headers["content-type"]` (any case).
    public var headers: HTTPHeaders
    /// The body (Content-Length bytes, or the chunked body decoded); empty when none was sent.
    public var body: [UInt8]

    /// Makes a request (the parser makes them; tests and handlers may too).
    public init(method: String, target: String, path: String, query: [(String, String)] = [],
                version: HTTPVersion = .http1_1, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.method = method
        self.target = target
        self.path = path
        self.query = query
        self.version = version
        self.headers = headers
        self.body = body
    }

    /// The first query value named `name` (exact case), or nil.
    public func queryValue(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Whether the client lets the connection stay open after the response:
    /// HTTP/1.1 unless `Connection: close`; HTTP/1.0 only with `Connection: keep-alive`.
    public var keepAlive: Bool {
        switch version {
        case .http1_1: return !headers.listContains("Connection", token: "close")
        case .http1_0: return headers.listContains("Connection", token: "keep-alive")
                           && !headers.listContains("Connection", token: "close")
        }
    }

    /// The token of an `Authorization: Bearer <token>` header, or nil when absent or malformed.
    public var bearerToken: String? { BearerToken.extract(from: headers["Authorization"]) }

    /// Equal in every field (query pairs compared in order).
    public static func == (a: HTTPRequest, b: HTTPRequest) -> Bool {
        a.method == b.method && a.target == b.target && a.path == b.path && a.version == b.version
            && a.headers == b.headers && a.body == b.body
            && a.query.count == b.query.count && zip(a.query, b.query).allSatisfy { $0 == $1 }
    }
}
