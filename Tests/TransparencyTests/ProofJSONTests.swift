import Foundation
import Testing
import Cryptography
@testable import Transparency

@Suite struct ProofJSONFormat {
    static func sampleProof(user: String = "user-1") throws -> UserProof {
        let log = TestLog(count: 40, userCount: 5, seed: 0xABC)
        return try log.proof(user: user, checkpoint: log.checkpoint())
    }

    @Test("a user proof and a consistency proof round-trip through JSON, present and absent users alike")
    func roundTrip() throws {
        for user in ["user-1", "user-3", "nobody"] {
            let proof = try Self.sampleProof(user: user)
            let bytes = proof.jsonBytes
            #expect(try UserProof(jsonBytes: bytes) == proof, "\(user)")
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("{\"checkpoint\":\"ledger.example/log\\n40\\n"))
        }
        let consistency = ConsistencyProof(from: 3, to: 9, proof: [SHA256.hash([1]), SHA256.hash([2])])
        #expect(try ConsistencyProof(jsonBytes: consistency.jsonBytes) == consistency)
        #expect(String(decoding: consistency.jsonBytes, as: UTF8.self).hasPrefix("{\"from\":3,\"to\":9,\"proof\":[\""))
    }

    @Test("strings with quotes, backslashes, control characters and non-ASCII round-trip exactly")
    func stringEscapes() throws {
        let text = "q\"b\\s/\u{0}\u{1f}\n\t\r é 𝄞"
        let value = JSONValue.object([("s", .string(text))])
        #expect(try JSONValue.parse(value.serialized) == value)
        #expect(try JSONValue.parse(Array("\"\\ud834\\udd1e\\u00e9\\/\"".utf8)) == .string("𝄞é/"))
    }

    @Test("malformed JSON is refused with the byte offset")
    func malformedJSON() throws {
        let cases = [
            "", "{", "}", "[1,]", "{\"a\":1,}", "{\"a\" 1}", "{'a':1}", "01", "1.5", "1e3", "-1", "18446744073709551616",
            "\"\\x\"", "\"\\ud834\"", "\"\\udd1e\"", "\"\\ud834\\u0041\"", "\"a\u{1}\"", "\"abc", "tru", "nul", "{\"a\":1,\"a\":2}",
            "[1] [2]", "\"\\u12\"", String(repeating: "[", count: 40) + String(repeating: "]", count: 40),
        ]
        for text in cases {
            #expect(throws: ProofFormatError.self, "\(text.debugDescription)") { try JSONValue.parse(Array(text.utf8)) }
        }
        #expect(throws: ProofFormatError.self) { try JSONValue.parse([0x22, 0xff, 0x22]) }
        #expect(try JSONValue.parse(Array(" 18446744073709551615 ".utf8)) == .number(UInt64.max))
        #expect(throws: ProofFormatError.self) { try JSONValue.parse(Array("[]".utf8), limits: JSONValue.Limits(maxBytes: 1)) }
    }

    @Test("a proof document with a missing, unknown, mistyped or oversized field is refused naming the field")
    func malformedDocuments() throws {
        let good = try Self.sampleProof().json
        guard case .object(let members) = good else { Issue.record("not an object"); return }
        func document(_ change: (inout [(key: String, value: JSONValue)]) -> Void) -> [UInt8] {
            var copy = members
            change(&copy)
            return JSONValue.object(copy).serialized
        }
        func refusedField(_ bytes: [UInt8]) -> String? {
            do {
                _ = try UserProof(jsonBytes: bytes)
                return nil
            } catch {
                return error.field ?? "offset \(error.offset ?? -1)"
            }
        }
        #expect(refusedField(document { $0.removeAll { $0.key == "user" } }) == "user")
        #expect(refusedField(document { $0.append((key: "extra", value: .null)) }) == "extra")
        #expect(refusedField(document { $0[1].value = .string("40") }) == "size")
        #expect(refusedField(document { $0[3].value = .object([]) }) == "records")
        // The completeness path: at most 256 siblings (the key's bits), exactly one of entry and absent.
        func completeness(_ change: (inout [(key: String, value: JSONValue)]) -> Void) -> [UInt8] {
            document { top in
                guard let i = top.firstIndex(where: { $0.key == "completeness" }), case .object(var inner) = top[i].value else { return }
                change(&inner)
                top[i].value = .object(inner)
            }
        }
        let zero = JSONValue.string(Base64.encode([UInt8](repeating: 0, count: 32)))
        #expect(refusedField(completeness { $0 = $0.map { $0.key == "siblings" ? (key: "siblings", value: .array(Array(repeating: zero, count: 257))) : $0 } }) == "completeness.siblings")
        #expect(refusedField(completeness { $0 = $0.map { $0.key == "siblings" ? (key: "siblings", value: .array(Array(repeating: zero, count: 256))) : $0 } }) == nil)
        #expect(refusedField(completeness { $0.append((key: "absent", value: .null)) }) == "completeness")
        #expect(refusedField(completeness { $0.removeAll { $0.key == "entry" || $0.key == "absent" } }) == "completeness")
        #expect(try UserProof(jsonBytes: good.serialized, limits: UserProof.Limits(maxRecords: 100)).records.count > 0)
        #expect(refusedField(good.serialized) == nil)
        #expect(refusedField(document { $0.swapAt(0, 1) }) == nil, "member order is free")
        do {
            _ = try UserProof(jsonBytes: good.serialized, limits: UserProof.Limits(maxRecords: 1))
            Issue.record("over the record limit accepted")
        } catch {
            #expect(error.field == "records")
        }
    }

    @Test("truncated and padded hashes are refused as not 32-byte hashes")
    func hashLengths() throws {
        let proof = try Self.sampleProof()
        let text = String(decoding: proof.jsonBytes, as: UTF8.self)
        let hash = try #require(proof.records.first?.inclusion.first)
        let encoded = Base64.encode(hash.bytes)
        for replacement in [Base64.encode(hash.bytes.dropLast()), Base64.encode(hash.bytes + [0]), String(encoded.dropLast(4)), encoded + "AAAA", ""] {
            let forged = Array(text.replacingOccurrences(of: encoded, with: replacement).utf8)
            do {
                _ = try UserProof(jsonBytes: forged)
                Issue.record("accepted a hash replaced by \(replacement.debugDescription)")
            } catch {
                #expect(error.message.contains("32-byte hash") || error.message.contains("base64"), "\(error)")
            }
        }
    }

    @Test("sizes and indices above 2^64 - 1 are refused, not wrapped")
    func overflowingNumbers() throws {
        let text = String(decoding: try Self.sampleProof().jsonBytes, as: UTF8.self)
        for forged in [text.replacingOccurrences(of: "\"size\":40", with: "\"size\":18446744073709551616"),
                       text.replacingOccurrences(of: "\"size\":40", with: "\"size\":340282366920938463463374607431768211496"),
                       text.replacingOccurrences(of: "\"size\":40", with: "\"size\":-1"),
                       text.replacingOccurrences(of: "\"size\":40", with: "\"size\":4e1")] {
            #expect(forged != text)
            #expect(throws: ProofFormatError.self) { try UserProof(jsonBytes: Array(forged.utf8)) }
        }
    }
}

/// The proof reader and checker never crash: seeded random bytes and seeded mutations of a valid
/// proof are either read or refused with an error.
@Suite struct ProofReaderFuzz {
    @Test("random bytes and mutated proofs are read or refused, never a crash")
    func fuzz() throws {
        let seed: UInt64 = 0xF022_1234
        var random = SplitMix64(seed: seed)
        let log = TestLog(count: 12, userCount: 3, seed: 7)
        let valid = try log.proof(user: "user-1", checkpoint: log.checkpoint()).jsonBytes
        let consistency = ConsistencyProof(from: 3, to: 12, proof: try MerkleTree.consistencyProof(oldSize: 3, newSize: 12, hashes: log.stored)).jsonBytes
        let checker = ProofChecker(verifier: TestLog.signer.verifier)
        let alphabet = Array("{}[]\",:\\u0123456789abcdef-+.eE truenullfalse\n\t=/".utf8) + [0x00, 0x80, 0xc3, 0xa9, 0xff, 0xed, 0xa0]
        var readCount = 0, checkedCount = 0
        for round in 0..<3000 {
            var input: [UInt8]
            switch round % 3 {
            case 0:
                input = (0..<Int.random(in: 0...64, using: &random)).map { _ in
                    Bool.random(using: &random) ? alphabet.randomElement(using: &random) ?? 0 : UInt8.random(in: 0...255, using: &random)
                }
            case 1:
                input = round % 2 == 0 ? valid : consistency
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    guard !input.isEmpty else { break }
                    let at = Int.random(in: 0..<input.count, using: &random)
                    switch Int.random(in: 0..<4, using: &random) {
                    case 0: input[at] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
                    case 1: input.remove(at: at)
                    case 2: input.insert(alphabet.randomElement(using: &random) ?? 0, at: at)
                    default: input = Array(input[..<at])
                    }
                }
            default:
                // Splice a random slice of the valid proof into itself.
                let a = Int.random(in: 0..<valid.count, using: &random), b = Int.random(in: a...valid.count, using: &random)
                let at = Int.random(in: 0...valid.count, using: &random)
                input = Array(valid[..<at]) + Array(valid[a..<b]) + Array(valid[at...])
            }
            do {
                let proof = try UserProof(jsonBytes: input)
                readCount += 1
                // Checking verifies a signature: only every few rounds, to keep the run short.
                if readCount % 4 == 0 {
                    checkedCount += 1
                    _ = try? checker.check(proof)
                }
            } catch {
                #expect(!error.description.isEmpty && !error.description.contains("\n"), "seed \(seed) round \(round)")
            }
            _ = try? ConsistencyProof(jsonBytes: input)
        }
        // The mutations left some documents readable, so the checker ran on forged content too.
        #expect(readCount > 0 && checkedCount > 0, "seed \(seed): \(readCount) read, \(checkedCount) checked")
    }
}
