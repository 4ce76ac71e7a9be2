extension P256 {
    /// A point in affine coordinates (never the point at infinity).
    struct AffinePoint: Equatable, Sendable {
        var x: FieldElement
        var y: FieldElement

        /// Whether y² = x³ − 3x + b.
        var isOnCurve: Bool {
            let x3 = x.squared() * x
            let threeX = x + x + x
            return y.squared() == x3 - threeX + FieldElement(montgomeryOf: P256.b)
        }

        @inline(__always) func negated() -> AffinePoint { AffinePoint(x: x, y: y.negated()) }
    }

    /// A point in Jacobian coordinates (X/Z², Y/Z³); Z = 0 is the point at infinity.
    struct JacobianPoint: Sendable {
        var x: FieldElement
        var y: FieldElement
        var z: FieldElement

        static let infinity = JacobianPoint(x: .one, y: .one, z: .zero)

        @inline(__always) init(x: FieldElement, y: FieldElement, z: FieldElement) {
            self.x = x; self.y = y; self.z = z
        }

        @inline(__always) init(_ p: AffinePoint) { self.init(x: p.x, y: p.y, z: .one) }

        @inline(__always) var isInfinity: Bool { z.isZero }

        @inline(__always) func negated() -> JacobianPoint { JacobianPoint(x: x, y: y.negated(), z: z) }

        /// The affine point, or nil for infinity (one field inversion).
        var affine: AffinePoint? {
            if isInfinity { return nil }
            let zInverse = z.inverted()
            let zInverse2 = zInverse.squared()
            return AffinePoint(x: x * zInverse2, y: y * zInverse2 * zInverse)
        }

        /// 2·P ("dbl-2001-b", a = −3): 3M + 5S.
        @inline(__always)
        func doubled() -> JacobianPoint {
            if isInfinity { return self }
            let delta = z.squared()
            let gamma = y.squared()
            let beta = x * gamma
            let t = (x - delta) * (x + delta)
            let alpha = t + t + t
            let beta4 = beta.doubled().doubled()
            let x3 = alpha.squared() - beta4.doubled()
            let z3 = (y + z).squared() - gamma - delta
            let gamma2x8 = gamma.squared().doubled().doubled().doubled()
            let y3 = alpha * (beta4 - x3) - gamma2x8
            return JacobianPoint(x: x3, y: y3, z: z3)
        }

        /// P + Q for Jacobian Q ("add-2007-bl"), with the equal-point and inverse-point cases.
        @inline(__always)
        func adding(_ q: JacobianPoint) -> JacobianPoint {
            if isInfinity { return q }
            if q.isInfinity { return self }
            let z1z1 = z.squared()
            let z2z2 = q.z.squared()
            let u1 = x * z2z2
            let u2 = q.x * z1z1
            let s1 = y * q.z * z2z2
            let s2 = q.y * z * z1z1
            let h = u2 - u1
            let r = (s2 - s1).doubled()
            if h.isZero { return r.isZero ? doubled() : .infinity }
            let i = h.doubled().squared()
            let j = h * i
            let v = u1 * i
            let x3 = r.squared() - j - v.doubled()
            let y3 = r * (v - x3) - (s1 * j).doubled()
            let z3 = ((z + q.z).squared() - z1z1 - z2z2) * h
            return JacobianPoint(x: x3, y: y3, z: z3)
        }

        /// P + Q for affine Q ("madd-2007-bl"), with the equal-point and inverse-point cases.
        @inline(__always)
        func adding(_ q: AffinePoint) -> JacobianPoint {
            if isInfinity { return JacobianPoint(q) }
            let z1z1 = z.squared()
            let u2 = q.x * z1z1
            let s2 = q.y * z * z1z1
            let h = u2 - x
            let r = (s2 - y).doubled()
            if h.isZero { return r.isZero ? doubled() : .infinity }
            let hh = h.squared()
            let i = hh.doubled().doubled()
            let j = h * i
            let v = x * i
            let x3 = r.squared() - j - v.doubled()
            let y3 = r * (v - x3) - (y * j).doubled()
            let z3 = (z + h).squared() - z1z1 - hh
            return JacobianPoint(x: x3, y: y3, z: z3)
        }

        /// Whether this point's affine x, reduced mod n, equals `r` (1 ≤ r < n), without inverting Z:
        /// X = x·Z² for x ∈ {r, r + n} (the latter only while r + n < p).
        func xCoordinateMatches(scalar r: Limbs) -> Bool {
            if isInfinity { return false }
            let zz = z.squared()
            if x == FieldElement(montgomeryOf: r) * zz { return true }
            var carry: UInt64 = 0
            let rPlusN = Limbs.add(r, Scalar.modulus, carry: &carry)
            guard carry == 0, rPlusN.isLess(than: FieldElement.modulus) else { return false }
            return x == FieldElement(montgomeryOf: rPlusN) * zz
        }

        /// k·P by plain double-and-add (a slow reference for tests and table building).
        func multiplied(by k: Limbs) -> JacobianPoint {
            var result = JacobianPoint.infinity
            for i in (0..<256).reversed() {
                result = result.doubled()
                if k.bit(i) { result = result.adding(self) }
            }
            return result
        }
    }
}
