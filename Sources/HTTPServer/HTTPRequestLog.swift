/// One line about one answered request: never the body, never a header (so never Authorization),
/// never the query string (it may carry identifiers).
public struct HTTPRequestLog: Sendable, Equatable {
    /// The method, or `-` when the request was refused before its request line was read.
    public var method: String
    /// The decoded path, or `-` when unknown.
    public var path: String
    /// The status sent.
    public var status: Int
    /// From the request's last byte read to its response queued for sending, in microseconds.
    public var microseconds: Int
    /// The request body's length in bytes.
    public var requestBytes: Int
    /// The response body's length in bytes (0 for HEAD, 204, 304).
    public var responseBytes: Int

    /// Makes an entry.
    public init(method: String, path: String, status: Int, microseconds: Int, requestBytes: Int, responseBytes: Int) {
        self.method = method
        self.path = path
        self.status = status
        self.microseconds = microseconds
        self.requestBytes = requestBytes
        self.responseBytes = responseBytes
    }

    /// The entry as one JSON object on one line:
    /// `{"method":"GET","path":"/v1/x","status":200,"us":85,"in":0,"out":17}`.
    public var jsonLine: String {
        "{\"method\":\(Self.quoted(method)),\"path\":\(Self.quoted(path)),\"status\":\(status),\"us\":\(microseconds),\"in\":\(requestBytes),\"out\":\(responseBytes)}"
    }

    /// The same line appended to `out` as UTF-8, without its newline (a logger that gathers many).
    public func appendJSONLine(to out: inout [UInt8]) {
        func plain(_ text: String) -> Bool {
            text.utf8.allSatisfy { $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C && $0 != 0x7F }
        }
        func string(_ text: String) {
            if plain(text) {
                out.append(0x22)
                out.append(contentsOf: text.utf8)
                out.append(0x22)
            } else {
                out.append(contentsOf: Self.quoted(text).utf8)
            }
        }
        func number(_ n: Int) { out.append(contentsOf: String(n).utf8) }
        out.append(contentsOf: #"{"method":"#.utf8)
        string(method)
        out.append(contentsOf: #","path":"#.utf8)
        string(path)
        out.append(contentsOf: #","status":"#.utf8)
        number(status)
        out.append(contentsOf: #","us":"#.utf8)
        number(microseconds)
        out.append(contentsOf: #","in":"#.utf8)
        number(requestBytes)
        out.append(contentsOf: #","out":"#.utf8)
        number(responseBytes)
        out.append(0x7D)
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                out += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count) + String(scalar.value, radix: 16)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
