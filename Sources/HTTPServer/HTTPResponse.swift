/// A response: status, headers, body. The server adds `Content-Length` (always, except for 204
/// and 304, which carry no body) and `Connection`; a handler's own values for those two, and any
/// `Transfer-Encoding`, are replaced.
public struct HTTPResponse: Sendable, Equatable {
    /// The status code, 200...599 (anything else is answered as 500).
    public var status: Int
    /// Header fields; names must be tokens and values free of CR, LF and NUL, else the server
    /// answers 500 instead (no header injection).
    public var headers: HTTPHeaders
    /// The body bytes (not sent for HEAD requests, whose Content-Length still counts them).
    public var body: [UInt8]

    /// A response with `status`, `headers` and `body`.
    public init(status: Int, headers: HTTPHeaders = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response whose body is `text` in UTF-8, with `Content-Type: text/plain; charset=utf-8`.
    public init(status: Int, text: String) {
        self.init(status: status, headers: ["Content-Type": "text/plain; charset=utf-8"], body: Array(text.utf8))
    }

    /// A response whose body is `json` (already encoded), with `Content-Type: application/json`.
    public init(status: Int, json: String) {
        self.init(status: status, headers: ["Content-Type": "application/json"], body: Array(json.utf8))
    }

    /// The reason phrase sent for `status` (`OK`, `Not Found`, ...); empty when unknown.
    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 100: return "Continue"
        case 200: return "OK"
        case 201: return "Created"
        case 202: return "Accepted"
        case 204: return "No Content"
        case 301: return "Moved Permanently"
        case 304: return "Not Modified"
        case 400: return "Bad Request"
        case 401: return "Unauthorized"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 413: return "Content Too Large"
        case 415: return "Unsupported Media Type"
        case 417: return "Expectation Failed"
        case 422: return "Unprocessable Content"
        case 429: return "Too Many Requests"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return ""
        }
    }

    /// The response the server sends for a refused request: the error's status and a JSON body
    /// naming the check, `{"error":"413 Payload Too Large: body over the limit"}`.
    static func refusal(_ error: HTTPRequestError) -> HTTPResponse {
        refusal(status: error.status, because: "\(error.status) \(reasonPhrase(error.status)): \(error.check.rawValue)")
    }

    /// A refusal the server makes itself (a timeout, the connection limit), in the same JSON shape.
    static func refusal(status: Int, because why: String) -> HTTPResponse {
        var body: [UInt8] = Array(#"{"error":""#.utf8)
        for b in why.utf8 {
            switch b {
            case 0x22, 0x5C: body.append(0x5C); body.append(b)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                body.append(contentsOf: Array("\\u00".utf8) + [hex[Int(b >> 4)], hex[Int(b & 0x0F)]])
            default: body.append(b)
            }
        }
        body.append(contentsOf: Array(#""}"#.utf8))
        return HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: body)
    }
}
