import AppleChainFixture
import Foundation
import Testing
import TestKit

/// `import --from appstore` verifies each notification's signature chain before anything goes in:
/// a chain to a trusted root (Apple Root CA - G3, or `--apple-root`), Apple's OIDs, the leaf's
/// signature over the notification and over its nested transaction info, and the profile's app.
@Suite(.enabled(if: OpenSSLChain.isAvailable, "openssl is missing: the import door's signature tests skip (apt-get install openssl)"))
struct AppStoreSignatureImport {
    /// A notification signed by the fixture's leaf, its transaction info a JWS signed the same way.
    static func signedLine(_ chain: OpenSSLChain, uuid: String = "n-1", bundle: String = "com.handz.app", key: String = "leaf") throws -> String {
        let now = OpenSSLChain.now
        let transaction = #"{"appAccountToken":"signed-user","bundleId":"\#(bundle)","environment":"Production","productId":"handz.pro.monthly","transactionId":"t-\#(uuid)","originalTransactionId":"t-\#(uuid)","purchaseDate":\#(now),"expiresDate":\#(now + 30 * 86_400_000),"price":9990,"currency":"USD","signedDate":\#(now)}"#
        let info = try chain.jws(chain: ["leaf", "intermediate", "root"], payload: transaction, key: key)
        let notification = #"{"notificationType":"SUBSCRIBED","subtype":"INITIAL_BUY","notificationUUID":"\#(uuid)","signedDate":\#(now),"data":{"bundleId":"\#(bundle)","environment":"Production","signedTransactionInfo":"\#(info)"}}"#
        return #"{"signedPayload":"\#(try chain.jws(chain: ["leaf", "intermediate", "root"], payload: notification, key: key))"}"#
    }

    static func file(_ s: Scratch, _ name: String, _ lines: [String]) throws -> String {
        let path = s.path + "/" + name
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aNotificationSignedUnderAGivenRootGoesInAndUnderNoTrustedRootIsRejectedAndKept() throws {
        let chain = try OpenSSLChain.shared.get()
        let s = Scratch()
        let root = s.path + "/root.pem"
        try chain.pem("root").write(toFile: root, atomically: true, encoding: .utf8)
        let notifications = try Self.file(s, "signed.jsonl", [try Self.signedLine(chain)])
        let trusted = Tool.run(["import", "--log", s.log, "--from", "appstore", "--apple-root", root, "--format", "json", notifications])
        let summary = try #require(Tool.json(trusted.out) as? [String: Any], "\(trusted.err)")
        #expect(trusted.status == 0 && summary["appended"] as? Int == 1 && summary["unverifiedJWS"] as? Int == 0, "\(trusted.out) \(trusted.err)")
        let state = Tool.json(Tool.run(["state", "--log", s.log, "--user", "signed-user", "--format", "json", "--at", "now"], now: nil).out) as? [String: Any]
        #expect(state?["planState"] as? String == "pro", "\(String(describing: state))")
        // Apple's production root alone: the test chain is not Apple's.
        let untrusted = Tool.run(["import", "--log", s.path + "/other", "--from", "appstore", notifications])
        #expect(untrusted.status == 1 && untrusted.err.contains(":1: signedPayload: certificate chain does not end at a trusted root"), "\(untrusted.err)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: s.path + "/other/rejected").filter { $0.hasSuffix(".jsonl") }
        #expect(kept.count == 1)
        // Taken on trust, explicitly: in, and counted.
        let trust = Tool.run(["import", "--log", s.path + "/trust", "--from", "appstore", "--unverified-jws", notifications])
        #expect(trust.status == 0 && trust.out.contains("1 line(s) taken from signed JWS without verifying the signature"), "\(trust.out)")
    }

    @Test func aChangedPayloadAnotherKeyADecodedLineAndAnotherBundleAreEachRejectedNamingTheCheck() throws {
        let chain = try OpenSSLChain.shared.get()
        let s = Scratch()
        let root = s.path + "/root.pem"
        try chain.pem("root").write(toFile: root, atomically: true, encoding: .utf8)
        // One byte of the signed payload changed (its base64url re-encoded): the signature no longer holds.
        let good = try Self.signedLine(chain, uuid: "n-2")
        let jws = String(good.dropFirst(#"{"signedPayload":""#.count).dropLast(2))
        let parts = jws.split(separator: ".").map(String.init)
        // The notification's id n-2 becomes n-9: still a notification, no longer the one signed.
        let payload = Array(String(decoding: Data(base64Encoded: Self.padded(parts[1]))!, as: UTF8.self)
            .replacingOccurrences(of: #""notificationUUID":"n-2""#, with: #""notificationUUID":"n-9""#).utf8)
        let changed = #"{"signedPayload":""# + parts[0] + "." + OpenSSLChain.base64URL(payload) + "." + parts[2] + #""}"#
        let otherKey = try Self.signedLine(chain, uuid: "n-3", key: "rogue")
        let decoded = #"{"notificationType":"SUBSCRIBED","notificationUUID":"n-4","signedDate":1775000000000,"data":{"signedTransactionInfo":{"appAccountToken":"u","productId":"handz.pro.monthly","transactionId":"t","purchaseDate":1775000000000,"expiresDate":1777592000000}}}"#
        let otherBundle = try Self.signedLine(chain, uuid: "n-5", bundle: "com.someone.else")
        let file = try Self.file(s, "mixed.jsonl", [changed, otherKey, decoded, otherBundle, good])
        // A profile of Handz that names its bundle.
        var profile = try #require(Tool.json(Tool.run(["profiles", "show", "handz"]).out) as? [String: Any])
        profile["bundleId"] = "com.handz.app"
        let profilePath = s.path + "/handz-bundle.json"
        try JSONSerialization.data(withJSONObject: profile).write(to: URL(fileURLWithPath: profilePath))
        let r = Tool.run(["import", "--log", s.log, "--from", "appstore", "--apple-root", root, "--profile", profilePath, file])
        #expect(r.status == 1 && r.out.hasPrefix("appended 1, duplicates 0, rejected 4"), "\(r.out) \(r.err)")
        #expect(r.err.contains(":1: signedPayload: JWS signature refused"), "\(r.err)")
        #expect(r.err.contains(":2: signedPayload: "), "\(r.err)")
        #expect(r.err.contains(":3: not a signed notification"), "\(r.err)")
        #expect(r.err.contains(":4: data.bundleId 'com.someone.else' is not the profile's bundleId 'com.handz.app'"), "\(r.err)")
    }

    static func padded(_ s: String) -> String {
        let b = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return b + String(repeating: "=", count: (4 - b.count % 4) % 4)
    }
}
