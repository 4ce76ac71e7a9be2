extension HTTPResponse {
    /// How the server frames a response on the wire.
    struct WireOptions {
        /// Send `Connection: close` (and close after it).
        var close: Bool
        /// Send `Connection: keep-alive` (an HTTP/1.0 client that asked to keep the connection).
        var announceKeepAlive: Bool
        /// The request was HEAD: headers only.
        var headOnly: Bool
    }

    /// Appends the status line, headers and body to `out`. Returns the body bytes written, or nil
    /// (and appends nothing) when the response is not sendable: a status outside 200...599, or a
    /// header name or value that could break the framing.
    func serialize(into out: inout [UInt8], _ options: WireOptions) -> Int? {
        guard (200...599).contains(status), headers.allSatisfy(Self.isSafe) else { return nil }
        let noBody = status == 204 || status == 304
        out.append(contentsOf: "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n".utf8)
        for field in headers where !Self.isFraming(field.name) {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        if !noBody { out.append(contentsOf: "Content-Length: \(body.count)\r\n".utf8) }
        if options.close {
            out.append(contentsOf: "Connection: close\r\n".utf8)
        } else if options.announceKeepAlive {
            out.append(contentsOf: "Connection: keep-alive\r\n".utf8)
        }
        out.append(contentsOf: "\r\n".utf8)
        if noBody || options.headOnly { return 0 }
        out.append(contentsOf: body)
        return body.count
    }

    /// A name that is a token and a value without CR, LF, NUL or other control bytes.
    private static func isSafe(_ field: (name: String, value: String)) -> Bool {
        !field.name.isEmpty
            && field.name.utf8.allSatisfy { ByteClass.test($0, ByteClass.token) }
            && field.value.utf8.allSatisfy { ByteClass.test($0, ByteClass.fieldValue) }
    }

    /// The fields the server writes itself.
    private static func isFraming(_ name: String) -> Bool {
        HTTPHeaders.sameName(name, "Content-Length") || HTTPHeaders.sameName(name, "Connection")
            || HTTPHeaders.sameName(name, "Transfer-Encoding")
    }
}
