extension P256 {
    /// An element of GF(p), p = 2²⁵⁶ − 2²²⁴ + 2¹⁹² + 2⁹⁶ − 1, held in Montgomery form (x·2²⁵⁶ mod p)
    /// and always fully reduced, so equal elements have equal limbs.
    struct FieldElement: Equatable, Sendable {
        var limbs: Limbs

        @inline(__always) static var modulus: Limbs {
            Limbs(0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001)
        }
        /// 2⁵¹² mod p, to enter Montgomery form.
        @inline(__always) static var rSquared: Limbs {
            Limbs(0x0000000000000003, 0xfffffffbffffffff, 0xfffffffffffffffe, 0x00000004fffffffd)
        }
        /// −p⁻¹ mod 2⁶⁴ (p ≡ −1 mod 2⁶⁴).
        @inline(__always) static var n0: UInt64 { 1 }

        @inline(__always) init(montgomery: Limbs) { limbs = montgomery }

        /// The element whose canonical value is `value` (caller guarantees `value < p`).
        @inline(__always) init(montgomeryOf value: Limbs) {
            limbs = Limbs.montgomeryMultiply(value, Self.rSquared, Self.modulus, Self.n0)
        }

        /// The element for a canonical value, or nil when it is not below p.
        init?(canonical value: Limbs) {
            guard value.isLess(than: Self.modulus) else { return nil }
            self.init(montgomeryOf: value)
        }

        static let zero = FieldElement(montgomery: .zero)
        static let one = FieldElement(montgomeryOf: Limbs(1, 0, 0, 0))

        /// The canonical value (out of Montgomery form).
        var canonical: Limbs { Limbs.montgomeryMultiply(limbs, Limbs(1, 0, 0, 0), Self.modulus, Self.n0) }

        @inline(__always) var isZero: Bool { limbs.isZero }

        @inline(__always) static func + (a: FieldElement, b: FieldElement) -> FieldElement {
            FieldElement(montgomery: Limbs.addModulo(a.limbs, b.limbs, modulus))
        }
        @inline(__always) static func - (a: FieldElement, b: FieldElement) -> FieldElement {
            FieldElement(montgomery: Limbs.subtractModulo(a.limbs, b.limbs, modulus))
        }
        @inline(__always) static func * (a: FieldElement, b: FieldElement) -> FieldElement {
            FieldElement(montgomery: Limbs.montgomeryMultiply(a.limbs, b.limbs, modulus, n0))
        }
        @inline(__always) func squared() -> FieldElement { self * self }
        @inline(__always) func doubled() -> FieldElement { self + self }
        @inline(__always) func negated() -> FieldElement { FieldElement.zero - self }

        /// `self^(p−2)`, the inverse for nonzero elements (zero maps to zero).
        func inverted() -> FieldElement {
            let exponent = Limbs.subtract(Self.modulus, Limbs(2, 0, 0, 0))
            var result = FieldElement.one
            for i in (0..<256).reversed() {
                result = result.squared()
                if exponent.bit(i) { result = result * self }
            }
            return result
        }
    }
}

extension P256.Limbs {
    /// `a − b` ignoring the borrow (caller knows `a ≥ b`).
    static func subtract(_ a: P256.Limbs, _ b: P256.Limbs) -> P256.Limbs {
        var borrow: UInt64 = 0
        return subtract(a, b, borrow: &borrow)
    }
}
