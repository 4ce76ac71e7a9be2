/// Comparisons whose running time does not depend on where the inputs differ.
public enum ConstantTime {
    /// True when `a` and `b` hold the same bytes. Every byte position up to the longer length is
    /// visited whatever the contents, so the time reveals only the lengths, never how much of a
    /// secret (a bearer token) a guess got right.
    public static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt64(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<max(a.count, b.count) {
            let left: UInt8 = i < a.count ? a[i] : 0
            let right: UInt8 = i < b.count ? b[i] : 0
            difference |= UInt64(left ^ right)
        }
        return difference == 0
    }

    /// True when the UTF-8 bytes of `a` and `b` are the same (see `equal(_:_:)` for [UInt8]).
    public static func equal(_ a: String, _ b: String) -> Bool { equal(Array(a.utf8), Array(b.utf8)) }
}
