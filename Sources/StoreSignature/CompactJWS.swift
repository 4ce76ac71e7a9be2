/// A JWS in compact serialization (RFC 7515 §7.1): exactly three base64url segments
/// `header.payload.signature`, decoded strictly.
public struct CompactJWS: Sendable {
    /// Default bound on the text length (Apple's notifications are a few KiB; nested JWS included).
    public static let defaultMaximumLength = 1 << 20

    /// The ASCII bytes `header.payload` that the signature covers.
    public let signingInput: [UInt8]
    /// The decoded header (JSON).
    public let header: [UInt8]
    /// The decoded payload (JSON for Apple).
    public let payload: [UInt8]
    /// The decoded signature (64 bytes r‖s for ES256).
    public let signature: [UInt8]

    /// Splits and decodes `text`; refuses other segment counts, over-long text, and any
    /// character outside the base64url alphabet (including padding and whitespace).
    public init(_ text: some StringProtocol, maximumLength: Int = CompactJWS.defaultMaximumLength) throws(AppleJWSError) {
        let bytes = Array(text.utf8)
        guard bytes.count <= maximumLength else { throw .tooLarge(bytes: bytes.count, limit: maximumLength) }
        var dots: [Int] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: ".") { dots.append(index) }
            index += 1
        }
        guard dots.count == 2 else { throw .notCompactJWS(segments: dots.count + 1) }
        let headerText = Array(bytes[..<dots[0]])
        let payloadText = Array(bytes[(dots[0] + 1)..<dots[1]])
        let signatureText = Array(bytes[(dots[1] + 1)...])
        do { header = try Base64.decode(headerText, urlAlphabet: true) } catch { throw .segmentEncoding(segment: "header", error) }
        do { payload = try Base64.decode(payloadText, urlAlphabet: true) } catch { throw .segmentEncoding(segment: "payload", error) }
        do { signature = try Base64.decode(signatureText, urlAlphabet: true) } catch { throw .segmentEncoding(segment: "signature", error) }
        signingInput = Array(bytes[..<dots[1]])
    }
}
