extension P256 {
    /// Arithmetic modulo the group order n, on canonical values below n; products go through
    /// Montgomery form internally.
    enum Scalar {
        @inline(__always) static var modulus: Limbs {
            Limbs(0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000)
        }
        /// 2⁵¹² mod n.
        @inline(__always) static var rSquared: Limbs {
            Limbs(0x83244c95be79eea2, 0x4699799c49bd6fa6, 0x2845b2392b6bec59, 0x66e12d94f3d95620)
        }
        /// −n⁻¹ mod 2⁶⁴.
        @inline(__always) static var n0: UInt64 { 0xccd1c8aaee00bc4f }

        /// Whether `1 ≤ value < n`.
        @inline(__always) static func isInRange(_ value: Limbs) -> Bool {
            !value.isZero && value.isLess(than: modulus)
        }

        /// `value mod n` for any 256-bit value (2²⁵⁶ < 2n, so one subtraction suffices).
        @inline(__always) static func reduced(_ value: Limbs) -> Limbs {
            var borrow: UInt64 = 0
            let difference = Limbs.subtract(value, modulus, borrow: &borrow)
            return borrow == 0 ? difference : value
        }

        /// `s⁻¹ mod n` in Montgomery form (s⁻¹·2²⁵⁶ mod n), for `1 ≤ s < n`, by Fermat: s^(n−2).
        static func montgomeryInverse(_ s: Limbs) -> Limbs {
            let m = modulus
            let base = Limbs.montgomeryMultiply(s, rSquared, m, n0)
            // Powers base^0 … base^15 in Montgomery form for a 4-bit fixed window.
            var table = [Limbs](repeating: .zero, count: 16)
            table[0] = Limbs.montgomeryMultiply(Limbs(1, 0, 0, 0), rSquared, m, n0)
            for i in 1..<16 { table[i] = Limbs.montgomeryMultiply(table[i - 1], base, m, n0) }
            let exponent = Limbs.subtract(m, Limbs(2, 0, 0, 0))
            var result = table[0]
            for window in (0..<64).reversed() {
                for _ in 0..<4 { result = Limbs.montgomeryMultiply(result, result, m, n0) }
                let digit = exponent.nibble(window)
                if digit != 0 { result = Limbs.montgomeryMultiply(result, table[digit], m, n0) }
            }
            return result
        }

        /// `a · b′ · 2⁻²⁵⁶ mod n`: with `b′` a Montgomery-form value this is the plain product `a · b`.
        @inline(__always) static func multiply(plain a: Limbs, montgomery b: Limbs) -> Limbs {
            Limbs.montgomeryMultiply(a, b, modulus, n0)
        }
    }
}
