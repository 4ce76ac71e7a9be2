import Testing
@testable import HTTPServer

@Suite struct ParserFuzzTests {
    static let validRequests = [
        "GET /v1/entitlements?user=u_1&x=%20y+z HTTP/1.1\r\nHost: ledger\r\nAuthorization: Bearer abc.def\r\n\r\n",
        "POST /v1/webhooks/store HTTP/1.1\r\nHost: h\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"id\":\"e_1\"}\n",
        "POST /hook HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\nT: 1\r\n\r\n",
        "HEAD / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
        "GET /a HTTP/1.1\r\nHost: h\r\n\r\nGET /b HTTP/1.1\r\nHost: h\r\n\r\n",
    ]
    static let alphabet = Array("GET POST / ? & = % + : ; , HTTP/1.1 HTTP/1.0 Host Content-Length Transfer-Encoding chunked 0 1 9 A f \r\n \r\n\r\n \t \0 \u{7F} é".utf8)
    static let allowedStatuses: Set<Int> = [400, 413, 417, 431, 501, 505]

    /// Checks one input: whole, the outcome is a request (consuming at most the input), an
    /// allowed refusal, or a wait for more bytes (which the server ends with 408); fed in random
    /// pieces, the outcome is the same.
    @discardableResult
    static func check(_ bytes: [UInt8], _ random: inout SplitMix64, seed: UInt64, round: Int, limits: HTTPRequestLimits) -> HTTPParseOutcome {
        let whole = HTTPRequestParser.parse(bytes, limits: limits)
        switch whole {
        case .request(_, let consumed):
            #expect(consumed > 0 && consumed <= bytes.count, "seed \(seed) round \(round): consumed \(consumed) of \(bytes.count)")
        case .rejected(let error):
            #expect(allowedStatuses.contains(error.status), "seed \(seed) round \(round): status \(error.status)")
            #expect(error.offset >= 0 && error.offset <= bytes.count, "seed \(seed) round \(round): offset \(error.offset)")
        case .incomplete:
            break
        }
        var parser = HTTPRequestParser(limits: limits)
        var end = 0
        var pieces = HTTPParseOutcome.incomplete(expectsContinue: false)
        while end < bytes.count {
            end = min(bytes.count, end + 1 + Int(random.next() % 24))
            pieces = parser.parse(Array(bytes[0..<end]))
            if case .incomplete = pieces { continue }
            break
        }
        if bytes.isEmpty { pieces = parser.parse(bytes) }
        #expect(normalized(pieces) == normalized(whole), "seed \(seed) round \(round): pieces gave \(pieces), whole gave \(whole)")
        return whole
    }

    /// Incomplete outcomes compare equal whatever `expectsContinue` says (it depends on timing).
    static func normalized(_ outcome: HTTPParseOutcome) -> HTTPParseOutcome {
        if case .incomplete = outcome { return .incomplete(expectsContinue: false) }
        return outcome
    }

    @Test("random bytes never crash the parser and end as a request, a 4xx/501/505, or a wait")
    func randomBytes() {
        let seed: UInt64 = 0x5EED_0001
        var random = SplitMix64(seed: seed)
        for round in 0..<3_000 {
            let length = Int(random.next() % 160)
            let bytes: [UInt8] = (0..<length).map { _ in
                random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))]
            }
            Self.check(bytes, &random, seed: seed, round: round, limits: HTTPRequestLimits())
        }
    }

    @Test("mutated valid requests never crash the parser and end as a request, a 4xx/501/505, or a wait")
    func mutatedRequests() {
        let seed: UInt64 = 0x5EED_0002
        var random = SplitMix64(seed: seed)
        let small = HTTPRequestLimits(maxHeaderBytes: 96, maxHeaderCount: 2, maxBodyBytes: 8)
        var requests = 0, waits = 0
        var statuses: Set<Int> = []
        for round in 0..<6_000 {
            var bytes = Array(Self.validRequests[Int(random.next() % UInt64(Self.validRequests.count))].utf8)
            for _ in 0..<(1 + Int(random.next() % 4)) {
                let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
                switch random.next() % 6 {
                case 0 where !bytes.isEmpty: bytes[position] = UInt8(truncatingIfNeeded: random.next())
                case 1: bytes.insert(Self.alphabet[Int(random.next() % UInt64(Self.alphabet.count))], at: position)
                case 2 where !bytes.isEmpty: bytes.remove(at: position)
                case 3: bytes = Array(bytes[0..<position])
                case 4:
                    let end = min(bytes.count, position + Int(random.next() % 20))
                    bytes.insert(contentsOf: bytes[position..<end], at: position)
                default: if !bytes.isEmpty { bytes[position] = [0x0D, 0x0A, 0x00, 0x20, 0x3A][Int(random.next() % 5)] }
                }
            }
            switch Self.check(bytes, &random, seed: seed, round: round, limits: round % 3 == 0 ? small : HTTPRequestLimits()) {
            case .request: requests += 1
            case .rejected(let error): statuses.insert(error.status)
            case .incomplete: waits += 1
            }
        }
        // The mutations reach every kind of outcome, so the checks above were exercised.
        #expect(requests > 100 && waits > 100, "seed \(seed): \(requests) requests, \(waits) waits")
        #expect(statuses.isSuperset(of: [400, 413, 431]), "seed \(seed): statuses \(statuses)")
    }
}
