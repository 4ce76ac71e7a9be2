import EventStore
import StoreSignature
import SubscriptionDomain
import Platform
import StoreAdapters

/// The App Store's signature check at the import door: each `signedPayload` (and the transaction
/// and renewal info inside it) must verify to Apple Root CA - G3, or to a root given with
/// `--apple-root` (PEM or DER), before anything goes in. `--unverified-jws` takes payloads on
/// trust instead, explicitly.
enum AppleSignature {
    static let rootOption = OptionSpec(name: "--apple-root", value: "FILE", help: "also trust this root certificate (PEM or DER) for App Store signatures (Apple's test chain, tests)", repeatable: true)
    static let unverifiedOption = OptionSpec(name: "--unverified-jws", value: nil, help: "take App Store payloads without verifying their signatures (decoded lines, tests); counted")

    /// The roots: Apple's pinned production root and each `--apple-root` file.
    static func roots(_ a: ParsedArguments) throws -> AppleTrustedRoots {
        var roots = AppleTrustedRoots.production
        for path in a.all("--apple-root") {
            let bytes: [UInt8]
            do {
                guard let read = try DurableFile.read(path: path) else { throw ToolError.input("\(path): no such root certificate file") }
                bytes = read
            } catch let e as any LocatedError {
                throw ToolError.input("\(path): cannot read the root certificate: \(e.description)")
            }
            do { try roots.add(derOrPEM: bytes) } catch { throw ToolError.input("\(path): not a root certificate: \(error)") }
        }
        return roots
    }

    /// The opener `import --from appstore` uses: verifying (the default) or `--unverified-jws`.
    static func opener(_ a: ParsedArguments) throws -> JWSOpener {
        if a.has("--unverified-jws") {
            guard a.all("--apple-root").isEmpty else { throw ToolError.usage("--apple-root and --unverified-jws contradict each other") }
            return .unverified
        }
        return opener(verifier: AppleJWSVerifier(trustedRoots: try roots(a)))
    }

    /// An opener that verifies with `verifier` (its cache of verified chains shared by every line).
    static func opener(verifier: AppleJWSVerifier) -> JWSOpener {
        JWSOpener(verifies: true) { text in try verifier.verify(text).payload }
    }
}
