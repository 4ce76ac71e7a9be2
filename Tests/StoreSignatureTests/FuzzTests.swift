import Foundation
import Testing
@testable import StoreSignature

/// Seeded random and mutated inputs through the DER reader, the certificate parser, the base64
/// decoders, the JWS splitter and the verifier: each must return or throw, never crash. Bounded
/// iteration counts; the seed is in every failure message.
@Suite struct FuzzTests {
    static let seed: UInt64 = 0x5eed_0f_a991e

    /// Walks every element the reader yields, descending into constructed ones.
    static func walk(_ reader: inout DERReader) throws(DERError) -> Int {
        var count = 0
        while !reader.isAtEnd {
            let element = try reader.read("element")
            count += 1
            if element.isConstructed {
                var children = try element.children()
                count += try walk(&children)
            } else {
                switch element.tag {
                case DERElement.Tag.integer: _ = try element.integerBytes()
                case DERElement.Tag.objectIdentifier: _ = try element.objectIdentifier().description
                case DERElement.Tag.boolean: _ = try element.boolean()
                case DERElement.Tag.bitString: _ = try element.bitString()
                case DERElement.Tag.utcTime, DERElement.Tag.generalizedTime: _ = try element.time()
                default: break
                }
            }
        }
        return count
    }

    /// One random edit of `bytes`: flip, overwrite, insert, delete, truncate, or set a length-ish byte.
    static func mutate(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var out = bytes
        let edits = 1 + random.below(3)
        for _ in 0..<edits {
            let position = random.below(max(1, out.count))
            switch random.below(7) {
            case 0 where !out.isEmpty: out[position] ^= UInt8(1 << random.below(8))
            case 1 where !out.isEmpty: out[position] = UInt8(truncatingIfNeeded: random.next())
            case 2: out.insert(UInt8(truncatingIfNeeded: random.next()), at: min(position, out.count))
            case 3 where !out.isEmpty: out.remove(at: position)
            case 4: out = Array(out.prefix(position))
            case 5 where !out.isEmpty: out[position] = [0x80, 0x81, 0x82, 0x84, 0x85, 0xff, 0x00, 0x7f][random.below(8)]
            default: out += random.bytes(random.below(4))
            }
        }
        return out
    }

    static func seeds() throws -> [[UInt8]] {
        try ["real-leaf", "real-intermediate", "real-root", "test-leaf", "test-intermediate", "test-root"]
            .map { try Resources.bytes("apple-chains/\($0).der") }
    }

    @Test("20,000 random and mutated byte strings through the DER reader and certificate parser: no crash")
    func derReader() throws {
        var random = SplitMix64(seed: Self.seed)
        let certificates = try Self.seeds()
        var parsed = 0, walked = 0
        for iteration in 0..<20_000 {
            let input: [UInt8] = iteration % 4 == 0
                ? random.bytes(random.below(300))
                : Self.mutate(certificates[random.below(certificates.count)], &random)
            do { _ = try X509Certificate(der: input); parsed += 1 } catch { _ = error.description }
            do {
                var reader = try DERReader(input, maximumDepth: 8)
                walked += try Self.walk(&reader)
            } catch { _ = error.description }
        }
        // Unmutated certificates still parse (the loop ran the real parser, not only refusals).
        for certificate in certificates { _ = try X509Certificate(der: certificate) }
        #expect(walked > 0, "seed \(Self.seed)")
        #expect(parsed < 20_000, "seed \(Self.seed): every mutation parsed, so mutations did nothing")
    }

    @Test("Deeply nested and huge-length DER is refused by the limits, not by the stack")
    func nestingAndSizeLimits() throws {
        var reader = try DERReader([0x30, 0x80, 0x05, 0x00, 0x00, 0x00], maximumDepth: 4)
        #expect(throws: DERError.self) { _ = try Self.walk(&reader) }
        var chain: [UInt8] = [0x05, 0x00]
        for _ in 0..<20 { chain = [0x30] + Self.length(chain.count) + chain }
        var limited = try DERReader(chain, maximumDepth: 16)
        #expect(throws: DERError(.tooDeep(limit: 16), field: "element", offset: 16 * 2 + 0)) { _ = try Self.walk(&limited) }
        #expect(throws: DERError(.inputTooLarge(size: 70_000, limit: DERReader.defaultMaximumSize), field: "input", offset: 0)) {
            _ = try DERReader([UInt8](repeating: 0, count: 70_000))
        }
    }

    static func length(_ n: Int) -> [UInt8] { n < 128 ? [UInt8(n)] : [0x81, UInt8(n)] }

    @Test("20,000 mutated and random strings through base64, base64url and the JWS splitter: no crash")
    func splitterAndBase64() throws {
        var random = SplitMix64(seed: Self.seed &+ 1)
        let samples = try ["testNotification", "transactionInfo", "renewalInfo", "missingX5CHeaderClaim"]
            .map { Array(try Resources.text("apple-mock-signed-data/\($0)").utf8) }
        let alphabet = Array("ABCxyz019-_+/=.{}\" \n".utf8)
        var split = 0
        for iteration in 0..<20_000 {
            var input = Self.mutate(samples[random.below(samples.count)], &random)
            if iteration % 2 == 0 { input = (0..<random.below(64)).map { _ in alphabet[random.below(alphabet.count)] } }
            let text = String(decoding: input, as: UTF8.self)
            do {
                let parts = try CompactJWS(text)
                split += 1
                _ = try? AppleJWSVerifier.header(parts.header)
                _ = try? AppleJWSVerifier.signedDate(parts.payload)
            } catch { _ = error.description }
            do { _ = try Base64.decode(text) } catch { _ = error.description }
            do { _ = try Base64.decodeURL(text) } catch { _ = error.description }
            do { _ = try PEM.certificates(in: "-----BEGIN CERTIFICATE-----\n" + text + "\n-----END CERTIFICATE-----") } catch { _ = error.description }
        }
        #expect(split > 0, "seed \(Self.seed &+ 1)")
    }

    @Test("Pathological JSON — deep nesting, huge numbers, duplicate keys — in header and payload is refused, not crashed on")
    func pathologicalJSON() throws {
        let verifier = AppleJWSVerifier(trustedRoots: AppleTrustedRoots())
        let deep = String(repeating: "[", count: 200_000)
        let cases: [(String, String)] = [
            (deep, "{}"),
            ("{\"alg\":\"ES256\",\"x5c\":[\"a\",\"b\",\"c\"]}", deep),
            ("{\"alg\":\"ES256\",\"alg\":\"none\"}", "{}"),
            ("{\"alg\":\"ES256\",\"x5c\":[\"QQ==\",\"QQ==\",\"QQ==\"]}", "{\"signedDate\":1e400}"),
            ("{\"alg\":\"ES256\",\"x5c\":[\"QQ==\",\"QQ==\",\"QQ==\"]}", "{\"signedDate\":99999999999999999999999}"),
            ("{\"alg\":\"ES256\",\"x5c\":[1,2,3]}", "{}"),
            ("\u{FEFF}{}", "{}"),
        ]
        for (header, payload) in cases {
            let jws = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(payload.utf8)) + ".AA"
            #expect(throws: AppleJWSError.self) { try verifier.verify(jws) }
        }
    }

    @Test("2,000 mutated Apple mock notifications through the full verifier (test root trusted): no crash, none accepted")
    func verifier() throws {
        var random = SplitMix64(seed: Self.seed &+ 2)
        var roots = AppleTrustedRoots()
        try roots.add(der: try Resources.bytes("apple-mock-signed-data/testCA.der"))
        let verifier = AppleJWSVerifier(trustedRoots: roots)
        let original = try Resources.text("apple-mock-signed-data/renewalInfo")
        _ = try verifier.verify(original)
        let segments = original.split(separator: ".").map { Array($0.utf8) }
        var accepted = 0
        for iteration in 0..<2_000 {
            var parts = segments
            let target = random.below(3)
            if iteration % 2 == 0 {
                // Mutate decoded JSON or signature bytes and re-encode, reaching the deeper checks.
                let decoded = (try? Base64.decode(parts[target], urlAlphabet: true)) ?? []
                parts[target] = Array(Base64URL.encode(Self.mutate(decoded, &random)).utf8)
            } else {
                parts[target] = Self.mutate(parts[target], &random)
            }
            let text = String(decoding: Array(parts.joined(separator: [UInt8(ascii: ".")])), as: UTF8.self)
            do {
                let verified = try verifier.verify(text, fallbackSignedDate: 1_700_000_000_000)
                // Only a mutation that leaves the signed bytes intact may pass.
                if verified.payload != (try Base64.decode(segments[1], urlAlphabet: true)) { accepted += 1 }
            } catch { _ = "\(error)" }
        }
        #expect(accepted == 0, "seed \(Self.seed &+ 2): \(accepted) altered payloads accepted")
    }
}
