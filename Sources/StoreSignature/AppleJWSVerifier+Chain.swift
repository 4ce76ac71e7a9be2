import Cryptography

extension AppleJWSVerifier {
    /// Every date-independent check of a leaf–intermediate–root chain (see the type's steps 2–3),
    /// in a fixed order so the first failure is reported.
    func verifyChainUncached(_ certificates: [[UInt8]]) throws(AppleJWSError) -> VerifiedChain {
        // The root is matched byte for byte, so the trusted copy's parse is the one used.
        guard let root = trustedRoots.root(matching: certificates[2]) else { throw .untrustedRoot }
        let leaf = try Self.parse(certificates[0], .leaf)
        let intermediate = try Self.parse(certificates[1], .intermediate)
        guard intermediate.issuer == root.subject else { throw .issuerMismatch(.intermediate) }
        guard leaf.issuer == intermediate.subject else { throw .issuerMismatch(.leaf) }
        do { try intermediate.verifySignature(issuerKey: root.publicKey) } catch { throw .certificateSignature(.intermediate, error) }
        do { try leaf.verifySignature(issuerKey: intermediate.publicKey) } catch { throw .certificateSignature(.leaf, error) }

        guard intermediate.isCA else { throw .intermediateNotCA }
        guard !leaf.isCA else { throw .leafIsCA }
        guard intermediate.allowsKeyUsage(bit: 5) else { throw .keyUsage(.intermediate, "lacks keyCertSign") }
        guard leaf.allowsKeyUsage(bit: 0) else { throw .keyUsage(.leaf, "lacks digitalSignature") }
        let handled: Set<DERObjectIdentifier> = [.basicConstraints, .keyUsage]
        for (position, certificate) in [(AppleJWSError.Position.leaf, leaf), (.intermediate, intermediate)] {
            if let unhandled = certificate.extensions.first(where: { $0.isCritical && !handled.contains($0.oid) }) {
                throw .unhandledCriticalExtension(position, unhandled.oid)
            }
        }
        guard intermediate.hasExtension(Self.intermediateOID) else { throw .missingAppleExtension(.intermediate, Self.intermediateOID) }
        guard leaf.hasExtension(Self.leafOID) else { throw .missingAppleExtension(.leaf, Self.leafOID) }
        guard case .p256(let leafKey) = leaf.publicKey else { throw .leafKeyNotP256(leaf.publicKey.curveName) }

        return VerifiedChain(leafKey: leafKey, leafFingerprint: leaf.sha256Fingerprint,
                             validity: [(.leaf, leaf.notBefore, leaf.notAfter),
                                        (.intermediate, intermediate.notBefore, intermediate.notAfter),
                                        (.root, root.notBefore, root.notAfter)])
    }

    static func parse(_ der: [UInt8], _ position: AppleJWSError.Position) throws(AppleJWSError) -> X509Certificate {
        do { return try X509Certificate(der: der) } catch { throw .malformedCertificate(position, error) }
    }
}
