import Cryptography
import Foundation
import StoreSignature

/// Certificates, keys and signatures made by the `openssl` command line in a temporary folder,
/// for chain and forgery tests. Built once per test process; tests skip when openssl is missing.
public final class OpenSSLChain: Sendable {
    /// Whether an `openssl` executable is on PATH.
    public static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl", "version"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    public static let skipReason = "openssl is not installed: chain and forgery tests skipped (apt-get install openssl)"

    /// The shared fixture, or the error that stopped it being built.
    public static let shared: Result<OpenSSLChain, Error> = Result { try OpenSSLChain() }

    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    public let directory: URL

    /// Extension sections for `openssl req -x509` / `openssl x509 -req -extfile`.
    public static let config = """
        [req]
        distinguished_name = dn
        prompt = no
        [dn]
        CN = unused
        [root]
        basicConstraints = critical, CA:true
        keyUsage = critical, keyCertSign, cRLSign
        [intermediate]
        basicConstraints = critical, CA:true, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        1.2.840.113635.100.6.2.1 = DER:05:00
        [intermediate_not_ca]
        basicConstraints = critical, CA:false
        keyUsage = critical, keyCertSign, cRLSign
        1.2.840.113635.100.6.2.1 = DER:05:00
        [end_entity_with_intermediate_oid]
        keyUsage = critical, digitalSignature
        1.2.840.113635.100.6.2.1 = DER:05:00
        [intermediate_no_oid]
        basicConstraints = critical, CA:true, pathlen:0
        keyUsage = critical, keyCertSign, cRLSign
        [leaf]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature
        1.2.840.113635.100.6.11.1 = DER:05:00
        [leaf_ca]
        basicConstraints = critical, CA:true
        keyUsage = critical, digitalSignature, keyCertSign
        1.2.840.113635.100.6.11.1 = DER:05:00
        [leaf_no_oid]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature
        [leaf_unknown_critical]
        basicConstraints = critical, CA:false
        keyUsage = critical, digitalSignature
        1.2.840.113635.100.6.11.1 = DER:05:00
        1.3.6.1.4.1.55555.1 = critical, DER:05:00
        [leaf_key_encipherment]
        basicConstraints = critical, CA:false
        keyUsage = critical, keyEncipherment
        1.2.840.113635.100.6.11.1 = DER:05:00

        """

    private init() throws {
        directory = URL(fileURLWithPath: Self.directoryPath)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The shared fixture lives until the process ends; remove its keys and certificates then.
        atexit { _ = try? FileManager.default.removeItem(atPath: OpenSSLChain.directoryPath) }
        try Self.config.write(to: directory.appendingPathComponent("openssl.cnf"), atomically: true, encoding: .utf8)

        // The trusted chain: P-256 keys, ecdsa-with-SHA256.
        try key("root"); try selfSigned("root", subject: "/CN=Test Root/O=storesig")
        try key("intermediate"); try issue("intermediate", subject: "/CN=Test Intermediate/O=storesig", by: "root", section: "intermediate")
        try key("leaf"); try issue("leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf")
        try issue("leaf-second", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf", serial: 77)

        // Another root with the same name; an intermediate and leaf under it.
        try key("other-root"); try selfSigned("other-root", subject: "/CN=Test Root/O=storesig")
        try key("other-intermediate"); try issue("other-intermediate", subject: "/CN=Test Intermediate/O=storesig", by: "other-root", section: "intermediate")
        try issue("other-leaf", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "other-intermediate", section: "leaf")

        // Broken intermediates (each issued by the trusted root) and leaves under them.
        try issue("intermediate-not-ca", key: "intermediate", subject: "/CN=Not CA/O=storesig", by: "root", section: "intermediate_not_ca")
        try issue("leaf-under-not-ca", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate-not-ca", issuerKey: "intermediate", section: "leaf")
        try issue("end-entity", key: "intermediate", subject: "/CN=End Entity/O=storesig", by: "root", section: "end_entity_with_intermediate_oid")
        try issue("leaf-under-end-entity", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "end-entity", issuerKey: "intermediate", section: "leaf")
        try issue("intermediate-no-oid", key: "intermediate", subject: "/CN=No OID/O=storesig", by: "root", section: "intermediate_no_oid")
        try issue("leaf-under-no-oid", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate-no-oid", issuerKey: "intermediate", section: "leaf")

        // Broken leaves under the good intermediate.
        try issue("leaf-ca", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf_ca")
        try issue("leaf-no-oid", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf_no_oid")
        try issue("leaf-one-day", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf", days: 1)
        try issue("leaf-unknown-critical", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf_unknown_critical")
        try issue("leaf-key-encipherment", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf_key_encipherment")
        try key("leaf-p384", curve: "P-384"); try issue("leaf-p384", subject: "/CN=Test Leaf/O=storesig", by: "intermediate", section: "leaf")

        // A rogue CA named like the intermediate, and a leaf it signed.
        try key("rogue"); try selfSigned("rogue", subject: "/CN=Test Intermediate/O=storesig")
        try issue("leaf-by-rogue", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "rogue", section: "leaf")

        // Apple's shape: P-384 root and intermediate signing with SHA-384, P-256 leaf.
        try key("root-384", curve: "P-384"); try selfSigned("root-384", subject: "/CN=Test Root G3/O=storesig", digest: "sha384")
        try key("intermediate-384", curve: "P-384")
        try issue("intermediate-384", subject: "/CN=Test WWDR/O=storesig", by: "root-384", section: "intermediate", digest: "sha384")
        try issue("leaf-under-384", key: "leaf", subject: "/CN=Test Leaf/O=storesig", by: "intermediate-384", section: "leaf", digest: "sha384")
    }

    /// This process's scratch folder.
    public static let directoryPath = FileManager.default.temporaryDirectory
        .appendingPathComponent("storesig-openssl-\(ProcessInfo.processInfo.processIdentifier)-\(UUID().uuidString)").path

    // MARK: openssl

    @discardableResult
    public func openssl(_ arguments: [String], input: Data? = nil) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        process.currentDirectoryURL = directory
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "openssl \(arguments.joined(separator: " ")) failed: \(String(decoding: err, as: UTF8.self))")
        }
        return out
    }

    public func key(_ name: String, curve: String = "P-256") throws {
        try openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:\(curve)", "-out", "\(name).key"])
    }

    public func selfSigned(_ name: String, subject: String, digest: String = "sha256") throws {
        try openssl(["req", "-new", "-x509", "-key", "\(name).key", "-subj", subject, "-days", "3650", "-\(digest)",
                     "-config", "openssl.cnf", "-extensions", "root", "-set_serial", "1", "-out", "\(name).pem"])
        try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
    }

    public func issue(_ name: String, key: String? = nil, subject: String, by issuer: String, issuerKey: String? = nil,
               section: String, days: Int = 3650, digest: String = "sha256", serial: Int = 2) throws {
        let keyFile = "\(key ?? name).key"
        try openssl(["req", "-new", "-key", keyFile, "-subj", subject, "-config", "openssl.cnf", "-out", "\(name).csr"])
        try openssl(["x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuerKey ?? issuer).key",
                     "-set_serial", String(serial), "-days", String(days), "-\(digest)",
                     "-extfile", "openssl.cnf", "-extensions", section, "-out", "\(name).pem"])
        try openssl(["x509", "-in", "\(name).pem", "-outform", "DER", "-out", "\(name).der"])
    }

    // MARK: artefacts

    public func der(_ name: String) throws -> [UInt8] { try [UInt8](Data(contentsOf: directory.appendingPathComponent("\(name).der"))) }

    public func pem(_ name: String) throws -> String { try String(contentsOf: directory.appendingPathComponent("\(name).pem"), encoding: .utf8) }

    /// A verifier trusting the test root alone.
    public func verifier(cacheCapacity: Int = 32) throws -> AppleJWSVerifier {
        var roots = AppleTrustedRoots()
        try roots.add(der: try der("root"))
        return AppleJWSVerifier(trustedRoots: roots, cacheCapacity: cacheCapacity)
    }

    /// ECDSA-SHA256 signature of `message` by `key`.key, converted from openssl's DER to r‖s.
    public func rawSignature(_ message: [UInt8], key: String) throws -> [UInt8] {
        let file = directory.appendingPathComponent("message-\(UUID().uuidString)")
        try Data(message).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let der = try openssl(["dgst", "-sha256", "-sign", "\(key).key", file.lastPathComponent])
        let signature = try ECDSA.Signature(derEncoded: [UInt8](der))
        return Self.padded(signature.r) + Self.padded(signature.s)
    }

    public static func padded(_ magnitude: [UInt8]) -> [UInt8] {
        [UInt8](repeating: 0, count: max(0, 32 - magnitude.count)) + magnitude
    }

    /// A JSON header `{"alg":…,"x5c":[…]}` with the given certificates (standard base64).
    public static func header(alg: String, x5c: [[UInt8]]) -> String {
        let list = x5c.map { "\"\(Data($0).base64EncodedString())\"" }.joined(separator: ",")
        return "{\"alg\":\"\(alg)\",\"x5c\":[\(list)]}"
    }

    /// A compact JWS over `header` and `payload`, signed by `key`.key (ES256).
    public func jws(header: String, payload: String, key: String = "leaf") throws -> String {
        let input = Self.base64URL(Array(header.utf8)) + "." + Self.base64URL(Array(payload.utf8))
        return input + "." + Self.base64URL(try rawSignature(Array(input.utf8), key: key))
    }

    /// A JWS with the given chain (certificate names) and payload.
    public func jws(chain: [String], payload: String, key: String = "leaf", alg: String = "ES256") throws -> String {
        try jws(header: Self.header(alg: alg, x5c: chain.map(der)), payload: payload, key: key)
    }

    /// Base64url without padding (RFC 7515 §2), for the JWS this fixture writes.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Milliseconds since 1970 now (test data: the certificates were issued "now").
    public static var now: Int64 { Int64(Date().timeIntervalSince1970 * 1000) }

    public static func notification(signedDate: Int64, extra: String = "") -> String {
        "{\"notificationType\":\"SUBSCRIBED\",\"notificationUUID\":\"4b3c-test\",\"signedDate\":\(signedDate)\(extra)}"
    }
}
