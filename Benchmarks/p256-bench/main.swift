// Release-mode throughput of signature verification on one core:
//   swift run -c release p256-bench
// Fixed inputs: a valid vector from Project Wycheproof (tcId 1 of
// ecdsa_secp256r1_sha256_p1363_test.json and of ecdsa_secp384r1_sha384_test.json); for the
// whole-JWS figures, Apple's mock renewalInfo and test root, and Apple's real certificate chain,
// read from this package's test resources (Tests/StoreSignatureTests/Resources).
import Cryptography
import Foundation
import StoreSignature

func hex(_ text: String) -> [UInt8] {
    var out = [UInt8]()
    var chars = Array(text.utf8)[...]
    while chars.count >= 2 {
        let pair = String(decoding: chars.prefix(2), as: UTF8.self)
        out.append(UInt8(pair, radix: 16) ?? 0)
        chars = chars.dropFirst(2)
    }
    return out
}

func measure(_ label: String, iterations: Int, _ body: () -> Bool) {
    guard body() else { print("\(label): the benchmark input does not verify; figures would be meaningless"); return }
    let start = DispatchTime.now().uptimeNanoseconds
    var accepted = 0
    for _ in 0..<iterations where body() { accepted += 1 }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    let perSecond = Double(iterations) / seconds
    print(String(format: "%@: %d verifications in %.3f s = %.0f /s (%.1f µs each), %d accepted",
                 label, iterations, seconds, perSecond, seconds / Double(iterations) * 1e6, accepted))
}

let p256Key = hex("042927b10512bae3eddcfe467828128bad2903269919f7086069c8c4df6c732838c7787964eaac00e5921fb1498a60f4606766b3d9685001558d1a974e7341513e")
let p256Message = hex("313233343030")
let p256Signature = hex("2ba3a8be6b94d5ec80a6d9d1190a436effe50d85a1eee859b8cc6af9bd5c2e184cd60b855d442f5b3c7b11eb6c4e0ae7525fe710fab9aa7c77a67f79e6fadd76")
let p384Key = hex("0429bdb76d5fa741bfd70233cb3a66cc7d44beb3b0663d92a8136650478bcefb61ef182e155a54345a5e8e5e88f064e5bc9a525ab7f764dad3dae1468c2b419f3b62b9ba917d5e8c4fb1ec47404a3fc76474b2713081be9db4c00e043ada9fc4a3")
let p384Signature = hex("3064023032401249714e9091f05a5e109d5c1216fdc05e98614261aa0dbd9e9cd4415dee29238afbd3b103c1e40ee5c9144aee0f02304326756fb2c4fd726360dd6479b5849478c7a9d054a833a58c1631c33b63c3441336ddf2c7fe0ed129aae6d4ddfeb753")

do {
    let key256 = try P256.PublicKey(uncompressedRepresentation: p256Key)
    let tableStart = DispatchTime.now().uptimeNanoseconds
    _ = key256.isValidSignature(rawSignature: p256Signature, message: p256Message)
    print(String(format: "P-256 first verification (builds the generator table): %.1f ms",
                 Double(DispatchTime.now().uptimeNanoseconds - tableStart) / 1e6))
    measure("P-256 ES256 (SHA-256 + verify)", iterations: 20_000) {
        key256.isValidSignature(rawSignature: p256Signature, message: p256Message)
    }
    let key384 = try P384.PublicKey(uncompressedRepresentation: p384Key)
    measure("P-384 ecdsa-with-SHA384", iterations: 200) {
        do { try key384.verify(derSignature: p384Signature, message: []); return true } catch { return false }
    }

    let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Tests/StoreSignatureTests/Resources")
    let jws = try String(contentsOf: resources.appendingPathComponent("apple-mock-signed-data/renewalInfo"), encoding: .utf8)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    var roots = AppleTrustedRoots()
    try roots.add(der: [UInt8](Data(contentsOf: resources.appendingPathComponent("apple-mock-signed-data/testCA.der"))))
    let cached = AppleJWSVerifier(trustedRoots: roots)
    measure("AppleJWSVerifier.verify, chain cached (Apple mock renewalInfo, 2.4 KB)", iterations: 10_000) {
        do { _ = try cached.verify(jws); return true } catch { return false }
    }
    let uncached = AppleJWSVerifier(trustedRoots: roots, cacheCapacity: 0)
    measure("AppleJWSVerifier.verify, no cache (parse 3 certificates, 3 P-256 checks)", iterations: 2_000) {
        do { _ = try uncached.verify(jws); return true } catch { return false }
    }
    let chain = try ["real-leaf", "real-intermediate", "real-root"].map {
        [UInt8](try Data(contentsOf: resources.appendingPathComponent("apple-chains/\($0).der")))
    }
    let production = AppleJWSVerifier(cacheCapacity: 0)
    measure("Apple's real chain, uncached (2 P-384/SHA-384 checks)", iterations: 100) {
        do { _ = try production.verifyCertificateChain(chain, at: 1_761_962_975_000); return true } catch { return false }
    }
} catch {
    print("benchmark inputs refused: \(error)")
}
