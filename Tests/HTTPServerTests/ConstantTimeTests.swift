import Testing
@testable import HTTPServer

@Suite struct ConstantTimeTests {
    @Test("equal bytes compare equal; any differing byte or length does not")
    func comparisons() {
        #expect(ConstantTime.equal([1, 2, 3], [1, 2, 3]))
        #expect(ConstantTime.equal([], []))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2, 4]))
        #expect(!ConstantTime.equal([1, 2, 3], [9, 2, 3]))
        #expect(!ConstantTime.equal([1, 2, 3], [1, 2]))
        #expect(!ConstantTime.equal([1, 2], [1, 2, 0]))
        #expect(!ConstantTime.equal([], [0]))
        #expect(ConstantTime.equal("s3cr3t-token", "s3cr3t-token"))
        #expect(!ConstantTime.equal("s3cr3t-token", "s3cr3t-tokeN"))
    }

    @Test("every single-bit change of a 32-byte secret is noticed")
    func everyBit() {
        let secret = (0..<32).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 5) }
        for index in 0..<secret.count {
            for bit in 0..<8 {
                var guess = secret
                guess[index] ^= UInt8(1 << bit)
                #expect(!ConstantTime.equal(secret, guess))
            }
        }
    }
}

@Suite struct BearerTokenTests {
    @Test("the token after Bearer is returned, the scheme's case ignored")
    func extracts() {
        #expect(BearerToken.extract(from: "Bearer abc.DEF-123_~+/==") == "abc.DEF-123_~+/==")
        #expect(BearerToken.extract(from: "bearer tok") == "tok")
        #expect(BearerToken.extract(from: "BEARER  tok") == "tok")
    }

    @Test("absent, other schemes, empty or malformed tokens give nil", arguments: [
        nil, "", "Bearer", "Bearer ", "Basic dXNlcjpwYXNz", "Bearertok", "Bearer tok en", "Bearer =abc",
        "Bearer ab=c", "Bearer tök", "Bearer a,b", "Token abc",
    ] as [String?])
    func refuses(header: String?) {
        #expect(BearerToken.extract(from: header) == nil)
    }

    @Test("a request exposes its bearer token")
    func fromRequest() {
        let request = HTTPRequest(method: "GET", target: "/", path: "/", headers: ["authorization": "Bearer xyz"])
        #expect(request.bearerToken == "xyz")
    }
}

@Suite struct ResponseWireTests {
    static func wire(_ response: HTTPResponse, close: Bool = false, headOnly: Bool = false) -> String? {
        var out: [UInt8] = []
        guard response.serialize(into: &out, .init(close: close, announceKeepAlive: false, headOnly: headOnly)) != nil else { return nil }
        return String(decoding: out, as: UTF8.self)
    }

    @Test("a response always carries Content-Length and, when closing, Connection: close")
    func framing() {
        #expect(Self.wire(HTTPResponse(status: 200, headers: ["X-A": "b"], body: Array("hi".utf8)))
            == "HTTP/1.1 200 OK\r\nX-A: b\r\nContent-Length: 2\r\n\r\nhi")
        #expect(Self.wire(HTTPResponse(status: 404), close: true) == "HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        #expect(Self.wire(HTTPResponse(status: 200, body: [1, 2, 3]), headOnly: true) == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n")
        #expect(Self.wire(HTTPResponse(status: 204, body: [1])) == "HTTP/1.1 204 No Content\r\n\r\n")
    }

    @Test("a handler's own framing headers are replaced by the server's")
    func framingHeadersReplaced() {
        let response = HTTPResponse(status: 200, headers: ["content-length": "99", "Connection": "keep-alive", "Transfer-Encoding": "chunked"], body: [65])
        #expect(Self.wire(response, close: true) == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\nConnection: close\r\n\r\nA")
    }

    @Test("header injection and impossible statuses are not sendable", arguments: [
        HTTPResponse(status: 200, headers: ["X-A": "b\r\nSet-Cookie: x"]),
        HTTPResponse(status: 200, headers: ["X A": "b"]),
        HTTPResponse(status: 200, headers: ["X-A": "b\0"]),
        HTTPResponse(status: 100),
        HTTPResponse(status: 600),
    ])
    func unsendable(response: HTTPResponse) {
        #expect(Self.wire(response) == nil)
    }

    @Test("a log line is one JSON object with the path escaped")
    func logLine() {
        let entry = HTTPRequestLog(method: "GET", path: "/a\"b\\c\n", status: 200, microseconds: 12, requestBytes: 0, responseBytes: 5)
        #expect(entry.jsonLine == #"{"method":"GET","path":"/a\"b\\c\n","status":200,"us":12,"in":0,"out":5}"#)
    }
}
