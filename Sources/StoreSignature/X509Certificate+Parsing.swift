import Cryptography

extension X509Certificate {
    /// Parses a DER certificate, strictly: version 1, 2 or 3 (extensions only in 3), ECDSA P-256/P-384 key, ecdsa-with-SHA256/384
    /// with absent parameters (the same inside and outside tbsCertificate), no duplicate
    /// extension, no byte after any structure.
    public init(der: [UInt8]) throws(DERError) {
        let certificate = try DERReader.single(der, "certificate")
        try certificate.expect(DERElement.Tag.sequence)
        var top = try certificate.children()
        let tbs = try top.read(DERElement.Tag.sequence, "tbsCertificate")
        let outerAlgorithm = try Self.signatureAlgorithm(top.read(DERElement.Tag.sequence, "signatureAlgorithm"))
        let signatureBits = try top.read(DERElement.Tag.bitString, "signatureValue").octetAlignedBitString()
        try top.finish()

        var fields = try tbs.children()
        // version [0] EXPLICIT INTEGER DEFAULT v1: absent means v1; DER omits an explicit v1.
        var version = 0
        if let wrapper = try fields.readIfPresent(DERElement.Tag.contextConstructed(0), "version") {
            var versionReader = try wrapper.children()
            version = try versionReader.read(DERElement.Tag.integer, "version").smallInteger()
            try versionReader.finish()
            guard version == 1 || version == 2 else {
                throw DERError(.unsupported("version \(version + 1) is not 2 or 3 (v1 omits the field)"), field: "version", offset: wrapper.start)
            }
        }
        let serial = try fields.read(DERElement.Tag.integer, "serialNumber").integerBytes()
        let innerAlgorithmElement = try fields.read(DERElement.Tag.sequence, "tbsCertificate signature")
        let innerAlgorithm = try Self.signatureAlgorithm(innerAlgorithmElement)
        guard innerAlgorithm == outerAlgorithm else {
            throw DERError(.invalidContent("(\(innerAlgorithm)) differs from signatureAlgorithm (\(outerAlgorithm))"),
                           field: "tbsCertificate signature", offset: innerAlgorithmElement.start)
        }
        let issuer = try fields.read(DERElement.Tag.sequence, "issuer")
        var validity = try fields.read(DERElement.Tag.sequence, "validity").children()
        let notBefore = try validity.read("validity notBefore").time()
        let notAfter = try validity.read("validity notAfter").time()
        try validity.finish()
        let subject = try fields.read(DERElement.Tag.sequence, "subject")
        let key = try Self.publicKey(fields.read(DERElement.Tag.sequence, "subjectPublicKeyInfo"))
        if version >= 1 {
            _ = try fields.readIfPresent(DERElement.Tag.contextPrimitive(1), "issuerUniqueID")
            _ = try fields.readIfPresent(DERElement.Tag.contextPrimitive(2), "subjectUniqueID")
        }
        var extensions: [Extension] = []
        if version == 2, let wrapper = try fields.readIfPresent(DERElement.Tag.contextConstructed(3), "extensions") {
            var outer = try wrapper.children()
            let list = try outer.read(DERElement.Tag.sequence, "extensions")
            try outer.finish()
            extensions = try Self.extensions(list)
        }
        try fields.finish()

        let signature: ECDSA.Signature
        do {
            signature = try ECDSA.Signature(derEncoded: signatureBits)
        } catch {
            throw DERError(.invalidContent("is not an ECDSA-Sig-Value: \(error)"), field: "signatureValue", offset: tbs.end)
        }

        self.der = der
        tbsCertificate = Array(tbs.encoded)
        serialNumber = Array(serial)
        self.issuer = Array(issuer.encoded)
        self.subject = Array(subject.encoded)
        self.notBefore = notBefore
        self.notAfter = notAfter
        publicKey = key
        self.extensions = extensions
        basicConstraints = try Self.basicConstraints(in: extensions)
        keyUsage = try Self.keyUsage(in: extensions)
        signatureAlgorithm = outerAlgorithm
        self.signature = signature
    }

    /// An AlgorithmIdentifier naming ecdsa-with-SHA256 or -SHA384, parameters absent (RFC 5758 §3.2).
    static func signatureAlgorithm(_ element: DERElement) throws(DERError) -> SignatureAlgorithm {
        var reader = try element.children()
        let oid = try reader.read(DERElement.Tag.objectIdentifier, "\(element.field) algorithm").objectIdentifier()
        guard reader.isAtEnd else {
            throw DERError(.invalidContent("has parameters, which ECDSA algorithms omit"), field: element.field, offset: reader.offset)
        }
        switch oid {
        case .ecdsaWithSHA256: return .ecdsaWithSHA256
        case .ecdsaWithSHA384: return .ecdsaWithSHA384
        default: throw DERError(.unsupported("algorithm \(oid) is not ecdsa-with-SHA256 or ecdsa-with-SHA384"), field: element.field, offset: element.start)
        }
    }

    /// SubjectPublicKeyInfo with id-ecPublicKey on prime256v1 or secp384r1, uncompressed point.
    static func publicKey(_ element: DERElement) throws(DERError) -> ECDSA.PublicKey {
        var info = try element.children()
        var algorithm = try info.read(DERElement.Tag.sequence, "subjectPublicKeyInfo algorithm").children()
        let keyType = try algorithm.read(DERElement.Tag.objectIdentifier, "public key algorithm").objectIdentifier()
        guard keyType == .ecPublicKey else {
            throw DERError(.unsupported("public key algorithm \(keyType) is not id-ecPublicKey"), field: "subjectPublicKeyInfo", offset: element.start)
        }
        let curveElement = try algorithm.read(DERElement.Tag.objectIdentifier, "named curve")
        let curve = try curveElement.objectIdentifier()
        try algorithm.finish()
        let point = try info.read(DERElement.Tag.bitString, "subjectPublicKey").octetAlignedBitString()
        try info.finish()
        do {
            switch curve {
            case .prime256v1: return .p256(try P256.PublicKey(uncompressedRepresentation: point))
            case .secp384r1: return .p384(try P384.PublicKey(uncompressedRepresentation: point))
            default: throw DERError(.unsupported("curve \(curve) is not P-256 or P-384"), field: "named curve", offset: curveElement.start)
            }
        } catch let error as ECDSAError {
            throw DERError(.invalidContent("is not a valid point: \(error)"), field: "subjectPublicKey", offset: element.start)
        } catch let error as DERError {
            throw error
        } catch {
            throw DERError(.invalidContent("is not a valid point"), field: "subjectPublicKey", offset: element.start)
        }
    }

    /// The extensions list: each `SEQUENCE { OID, BOOLEAN critical DEFAULT FALSE, OCTET STRING }`.
    static func extensions(_ list: DERElement) throws(DERError) -> [Extension] {
        var reader = try list.children()
        var out: [Extension] = []
        guard !reader.isAtEnd else { throw list.invalid("is an empty extensions list (RFC 5280 requires at least one)") }
        while !reader.isAtEnd {
            let element = try reader.read(DERElement.Tag.sequence, "extension")
            var fields = try element.children()
            let oid = try fields.read(DERElement.Tag.objectIdentifier, "extension extnID").objectIdentifier()
            let critical = try fields.readIfPresent(DERElement.Tag.boolean, "extension \(oid) critical")?.boolean() ?? false
            let value = try fields.read(DERElement.Tag.octetString, "extension \(oid) extnValue").octetString()
            try fields.finish()
            guard !out.contains(where: { $0.oid == oid }) else {
                throw DERError(.invalidContent("appears twice"), field: "extension \(oid)", offset: element.start)
            }
            out.append(Extension(oid: oid, isCritical: critical, value: Array(value)))
        }
        return out
    }

    /// basicConstraints: `SEQUENCE { BOOLEAN cA DEFAULT FALSE, INTEGER pathLenConstraint OPTIONAL }`.
    static func basicConstraints(in extensions: [Extension]) throws(DERError) -> BasicConstraints? {
        guard let ext = extensions.first(where: { $0.oid == .basicConstraints }) else { return nil }
        let element = try DERReader.single(ext.value, "basicConstraints")
        try element.expect(DERElement.Tag.sequence)
        var reader = try element.children()
        let isCA = try reader.readIfPresent(DERElement.Tag.boolean, "basicConstraints cA")?.boolean() ?? false
        let pathLength = try reader.readIfPresent(DERElement.Tag.integer, "basicConstraints pathLenConstraint")?.smallInteger()
        try reader.finish()
        return BasicConstraints(isCA: isCA, pathLength: pathLength)
    }

    /// keyUsage: a BIT STRING, bit 0 first.
    static func keyUsage(in extensions: [Extension]) throws(DERError) -> [Bool]? {
        guard let ext = extensions.first(where: { $0.oid == .keyUsage }) else { return nil }
        let element = try DERReader.single(ext.value, "keyUsage")
        let (unused, bytes) = try element.bitString()
        var bits: [Bool] = []
        for byte in bytes { for i in 0..<8 { bits.append(byte & (0x80 >> UInt8(i)) != 0) } }
        return Array(bits.dropLast(unused))
    }
}
