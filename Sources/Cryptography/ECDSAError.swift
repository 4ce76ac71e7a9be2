/// Why a public key or a signature was refused; `description` is one line naming the check.
public enum ECDSAError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The encoded public key has the wrong length.
    case publicKeyLength(curve: String, actual: Int, expected: Int)
    /// The encoded public key does not start with 0x04 (uncompressed SEC 1 form).
    case publicKeyNotUncompressed(curve: String, firstByte: UInt8?)
    /// A public key coordinate is not below the field prime.
    case coordinateOutOfRange(curve: String, coordinate: String)
    /// The public point does not satisfy the curve equation.
    case pointNotOnCurve(curve: String)
    /// A raw `r‖s` signature has the wrong length.
    case signatureLength(curve: String, actual: Int, expected: Int)
    /// A DER signature is malformed at `offset`.
    case signatureEncoding(reason: String, offset: Int)
    /// r or s is zero or not below the group order.
    case componentOutOfRange(curve: String, component: String, reason: String)
    /// The signature is well formed but does not verify under the key.
    case signatureMismatch(curve: String)

    public var description: String {
        switch self {
        case let .publicKeyLength(curve, actual, expected):
            "\(curve) public key is \(actual) bytes, not \(expected) (0x04‖X‖Y)"
        case let .publicKeyNotUncompressed(curve, firstByte):
            if let firstByte {
                "\(curve) public key starts with 0x\(String(firstByte, radix: 16)), not 0x04 (uncompressed)"
            } else {
                "\(curve) public key is empty"
            }
        case let .coordinateOutOfRange(curve, coordinate):
            "\(curve) public key \(coordinate) coordinate is not below the field prime"
        case let .pointNotOnCurve(curve):
            "\(curve) public key is not a point on the curve"
        case let .signatureLength(curve, actual, expected):
            "\(curve) raw signature is \(actual) bytes, not \(expected) (r‖s)"
        case let .signatureEncoding(reason, offset):
            "DER signature malformed at offset \(offset): \(reason)"
        case let .componentOutOfRange(curve, component, reason):
            "\(curve) signature \(component) is \(reason)"
        case let .signatureMismatch(curve):
            "\(curve) signature does not verify under the public key"
        }
    }
}
