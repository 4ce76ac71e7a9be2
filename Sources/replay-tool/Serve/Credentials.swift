import EventStore
import HTTPServer
import Platform

/// A bearer token read from a file (its trailing newline ignored), compared in constant time.
/// Never printed: its description says only where it came from.
struct Credential: Sendable, CustomStringConvertible {
    private let token: [UInt8]
    let path: String

    /// Reads the token in `path`; an empty or missing file is a usage error naming the file.
    init(path: String, option: String) throws {
        let bytes: [UInt8]
        do {
            guard let read = try DurableFile.read(path: path) else { throw ToolError.usage("\(option) \(path): no such file") }
            bytes = read
        } catch let e as any LocatedError {
            throw ToolError.input("\(option) \(path): cannot read: \(e.description)")
        }
        var token = bytes
        while let last = token.last, last == 0x0A || last == 0x0D { token.removeLast() }
        guard !token.isEmpty else { throw ToolError.usage("\(option) \(path): the file holds no token") }
        guard token.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw ToolError.usage("\(option) \(path): a token is one line of printable ASCII without spaces (a bearer token's characters)")
        }
        self.token = token
        self.path = path
    }

    /// Whether the request carries `Authorization: Bearer <this token>`.
    func admits(_ request: HTTPRequest) -> Bool {
        guard let presented = request.bearerToken else { return false }
        return ConstantTime.equal(Array(presented.utf8), token)
    }

    var description: String { "the token in \(path)" }

    /// Whether two credentials hold the same token (compared in constant time).
    func sameToken(as other: Credential) -> Bool { ConstantTime.equal(token, other.token) }
}
