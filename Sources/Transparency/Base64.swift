/// The standard base64 of RFC 4648 §4, with padding, decoded strictly: length a multiple of four,
/// padding only at the end, and the unused bits of the last symbol zero, so every byte string has
/// exactly one accepted text form.
public enum Base64 {
    static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xff, count: 256)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = UInt8(i) }
        return table
    }()

    /// The base64 text of `bytes`.
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let input = Array(bytes)
        var out: [UInt8] = []
        out.reserveCapacity((input.count + 2) / 3 * 4)
        var i = 0
        while i + 3 <= input.count {
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8 | UInt32(input[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(n >> UInt32(shift) & 63)]) }
            i += 3
        }
        switch input.count - i {
        case 1:
            let n = UInt32(input[i]) << 16
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)])
            out.append(0x3d); out.append(0x3d)
        case 2:
            let n = UInt32(input[i]) << 16 | UInt32(input[i + 1]) << 8
            out.append(alphabet[Int(n >> 18 & 63)]); out.append(alphabet[Int(n >> 12 & 63)]); out.append(alphabet[Int(n >> 6 & 63)])
            out.append(0x3d)
        default:
            break
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes of strict base64 `text`; nil for anything else (wrong length, a symbol outside
    /// the alphabet, misplaced padding, nonzero unused bits).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        let input = Array(text.utf8)
        guard input.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(input.count / 4 * 3)
        var i = 0
        while i < input.count {
            let last = i + 4 == input.count
            let padding = last ? (input[i + 3] == 0x3d ? (input[i + 2] == 0x3d ? 2 : 1) : 0) : 0
            var n: UInt32 = 0
            for j in 0..<(4 - padding) {
                let v = values[Int(input[i + j])]
                guard v != 0xff else { return nil }
                n |= UInt32(v) << UInt32(18 - 6 * j)
            }
            out.append(UInt8(n >> 16 & 0xff))
            switch padding {
            case 0:
                out.append(UInt8(n >> 8 & 0xff)); out.append(UInt8(n & 0xff))
            case 1:
                guard n & 0xff == 0 else { return nil }
                out.append(UInt8(n >> 8 & 0xff))
            default:
                guard n & 0xffff == 0 else { return nil }
            }
            i += 4
        }
        return out
    }
}
