/// Why a request was refused: the status to answer with, the check that failed, and where.
/// The connection is always closed after answering one of these.
public struct HTTPRequestError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Which rule the request broke.
    public enum Check: String, Sendable {
        /// 400: a NUL byte in the head, or %00 in the target.
        case nulByte = "NUL byte"
        /// 400: a line ended by LF alone.
        case bareLineFeed = "line feed without carriage return"
        /// 400: a CR not followed by LF.
        case bareCarriageReturn = "carriage return without line feed"
        /// 431: the head (or a trailer section) is over `maxHeaderBytes`.
        case headerBlockTooLarge = "header block too large"
        /// 431: more than `maxHeaderCount` header (or trailer) fields.
        case tooManyHeaders = "too many header fields"
        /// 400: not `METHOD SP TARGET SP VERSION` with single spaces.
        case malformedRequestLine = "malformed request line"
        /// 400: the method is not a token.
        case invalidMethod = "invalid method token"
        /// 400: the target is not origin-form (`/...`) or has bytes outside RFC 3986.
        case invalidTarget = "request target not in origin form"
        /// 400: `%` without two hex digits, or decoded bytes that are not UTF-8.
        case invalidPercentEncoding = "invalid percent-encoding"
        /// 505: a well-formed version other than HTTP/1.0 and HTTP/1.1.
        case unsupportedVersion = "unsupported HTTP version"
        /// 400: a field line starting with SP or HTAB.
        case obsoleteLineFolding = "obsolete line folding"
        /// 400: a field name that is not a token (or whitespace before the colon).
        case invalidHeaderName = "invalid header field name"
        /// 400: a control byte in a field value, or a value that is not UTF-8.
        case invalidHeaderValue = "invalid header field value"
        /// 400: HTTP/1.1 without exactly one Host, or HTTP/1.0 with several.
        case missingHost = "missing or repeated Host"
        /// 400: Content-Length repeated or not 1*DIGIT.
        case invalidContentLength = "invalid or repeated Content-Length"
        /// 400: both Content-Length and Transfer-Encoding (RFC 9112 §6.3).
        case contentLengthWithTransferEncoding = "both Content-Length and Transfer-Encoding"
        /// 400: chunked not the final coding, or Transfer-Encoding in HTTP/1.0.
        case invalidTransferEncoding = "invalid Transfer-Encoding"
        /// 501: a transfer coding other than chunked.
        case unsupportedTransferCoding = "unsupported transfer coding"
        /// 400: a malformed chunk size line, extension, or chunk data not followed by CRLF.
        case invalidChunk = "malformed chunked body"
        /// 413: the body (Content-Length or chunks) is over `maxBodyBytes`.
        case bodyTooLarge = "body too large"
        /// 417: an Expect other than 100-continue.
        case unsupportedExpectation = "unsupported Expect"
        /// 408: the request was not complete `requestTimeout` after its first byte.
        case requestTimeout = "request not received in time"
    }

    /// The response status: 400, 408, 413, 417, 431, 501 or 505.
    public let status: Int
    /// The rule that failed.
    public let check: Check
    /// The byte offset from the request's first byte where the fault was seen.
    public let offset: Int
    /// A short detail (e.g. the header name), never header values or body bytes.
    public let detail: String

    /// Makes an error; the status follows from the check.
    public init(_ check: Check, at offset: Int, _ detail: String = "") {
        self.check = check
        self.offset = offset
        self.detail = detail
        switch check {
        case .headerBlockTooLarge, .tooManyHeaders: status = 431
        case .bodyTooLarge: status = 413
        case .unsupportedTransferCoding: status = 501
        case .unsupportedVersion: status = 505
        case .unsupportedExpectation: status = 417
        case .requestTimeout: status = 408
        default: status = 400
        }
    }

    /// One line: `400 at byte 17: invalid header field name (X Y)`.
    public var description: String {
        "\(status) at byte \(offset): \(check.rawValue)" + (detail.isEmpty ? "" : " (\(detail))")
    }
}
