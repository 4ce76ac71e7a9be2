extension P256 {
    /// The digits of `k` in width-5 non-adjacent form, least significant first: each digit is
    /// zero or odd in −15…15, and any nonzero digit is followed by at least four zeros.
    static func nonAdjacentForm(_ k: Limbs) -> [Int8] {
        var digits = [Int8]()
        digits.reserveCapacity(257)
        var rest = k
        while !rest.isZero {
            var digit = 0
            if rest.isOdd {
                digit = Int(rest.l0 & 31)
                if digit >= 16 { digit -= 32 }
                // rest < n < 2²⁵⁶ − 16, so adding back at most 15 cannot overflow.
                rest = digit > 0 ? rest.subtracting(small: UInt64(digit)) : rest.adding(small: UInt64(-digit))
            }
            digits.append(Int8(digit))
            rest = rest.shiftedRightOne()
        }
        return digits
    }

    /// k·Q by the width-5 NAF of k over the odd multiples Q, 3Q, …, 15Q.
    static func multiply(_ q: AffinePoint, by k: Limbs) -> JacobianPoint {
        let digits = nonAdjacentForm(k)
        if digits.isEmpty { return .infinity }
        var odd = [JacobianPoint]()
        odd.reserveCapacity(8)
        odd.append(JacobianPoint(q))
        let twice = odd[0].doubled()
        for i in 1..<8 { odd.append(odd[i - 1].adding(twice)) }
        var result = JacobianPoint.infinity
        for i in stride(from: digits.count - 1, through: 0, by: -1) {
            result = result.doubled()
            let digit = Int(digits[i])
            if digit > 0 {
                result = result.adding(odd[digit >> 1])
            } else if digit < 0 {
                result = result.adding(odd[(-digit) >> 1].negated())
            }
        }
        return result
    }

    /// The digest as an integer mod n: its leftmost 256 bits (shorter digests are taken whole).
    static func digestScalar(_ digest: [UInt8]) -> Limbs {
        var padded = [UInt8](repeating: 0, count: 32)
        let used = min(digest.count, 32)
        for i in 0..<used { padded[32 - used + i] = digest[i] }
        return Scalar.reduced(Limbs(bigEndian: padded, offset: 0))
    }

    /// ECDSA verification (SEC 1 §4.1.4) for r, s already known to lie in 1…n−1.
    static func verify(r: Limbs, s: Limbs, digest: [UInt8], publicKey q: AffinePoint) -> Bool {
        let e = digestScalar(digest)
        let w = Scalar.montgomeryInverse(s)
        let u1 = Scalar.multiply(plain: e, montgomery: w)
        let u2 = Scalar.multiply(plain: r, montgomery: w)
        let sum = multiplyGenerator(u1).adding(multiply(q, by: u2))
        return sum.xCoordinateMatches(scalar: r)
    }
}
