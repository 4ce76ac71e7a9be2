import HTTPServer
import Reports

/// JSON answers of the server (`Content-Type: application/json`).
enum ServedJSON {
    static func response(_ status: Int, _ value: JSON) -> HTTPResponse {
        HTTPResponse(status: status, json: value.rendered)
    }

    static func ok(_ value: JSON) -> HTTPResponse { response(200, value) }

    /// `{"error": why}`; `why` never holds a credential.
    static func error(_ status: Int, _ why: String) -> HTTPResponse { response(status, .object([("error", .string(why))])) }

    /// What a command printed on stdout (already JSON), as the body.
    static func printed(_ bytes: [UInt8]) -> HTTPResponse {
        var body = bytes
        while body.last == 0x0A { body.removeLast() }
        return HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: body)
    }
}
