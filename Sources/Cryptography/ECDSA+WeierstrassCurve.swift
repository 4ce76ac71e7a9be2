extension ECDSA {
    /// A prime-order short Weierstrass curve y² = x³ − 3x + b with generic limb arithmetic:
    /// Jacobian points, Shamir's simultaneous u1·G + u2·Q. Serves P-384 (cold path: certificate
    /// signatures) and, in tests, as a second implementation of P-256.
    struct WeierstrassCurve: Sendable {
        let name: String
        let field: MontgomeryModulus
        let order: MontgomeryModulus
        /// b in Montgomery form.
        let b: [UInt64]
        /// The generator in Montgomery form.
        let gx: [UInt64], gy: [UInt64]

        var byteCount: Int { 8 * field.count }

        init(name: String, p: [UInt64], n: [UInt64], b: [UInt64], gx: [UInt64], gy: [UInt64]) {
            self.name = name
            field = MontgomeryModulus(limbs: p)
            order = MontgomeryModulus(limbs: n)
            self.b = field.toMontgomery(b)
            self.gx = field.toMontgomery(gx)
            self.gy = field.toMontgomery(gy)
        }

        static let p384 = WeierstrassCurve(
            name: "P-384",
            p: [0x00000000ffffffff, 0xffffffff00000000, 0xfffffffffffffffe, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff],
            n: [0xecec196accc52973, 0x581a0db248b0a77a, 0xc7634d81f4372ddf, 0xffffffffffffffff, 0xffffffffffffffff, 0xffffffffffffffff],
            b: [0x2a85c8edd3ec2aef, 0xc656398d8a2ed19d, 0x0314088f5013875a, 0x181d9c6efe814112, 0x988e056be3f82d19, 0xb3312fa7e23ee7e4],
            gx: [0x3a545e3872760ab7, 0x5502f25dbf55296c, 0x59f741e082542a38, 0x6e1d3b628ba79b98, 0x8eb1c71ef320ad74, 0xaa87ca22be8b0537],
            gy: [0x7a431d7c90ea0e5f, 0x0a60b1ce1d7e819d, 0xe9da3113b5f0b8c0, 0xf8f41dbd289a147c, 0x5d9e98bf9292dc29, 0x3617de4a96262c6f])

        static let p256 = WeierstrassCurve(
            name: "P-256",
            p: [0xffffffffffffffff, 0x00000000ffffffff, 0x0000000000000000, 0xffffffff00000001],
            n: [0xf3b9cac2fc632551, 0xbce6faada7179e84, 0xffffffffffffffff, 0xffffffff00000000],
            b: [0x3bce3c3e27d2604b, 0x651d06b0cc53b0f6, 0xb3ebbd55769886bc, 0x5ac635d8aa3a93e7],
            gx: [0xf4a13945d898c296, 0x77037d812deb33a0, 0xf8bce6e563a440f2, 0x6b17d1f2e12c4247],
            gy: [0xcbb6406837bf51f5, 0x2bce33576b315ece, 0x8ee7eb4a7c0f9e16, 0x4fe342e2fe1a7f9b])

        /// A Jacobian point with Montgomery-form coordinates; z = 0 is infinity.
        struct Point: Sendable {
            var x: [UInt64], y: [UInt64], z: [UInt64]
        }

        var infinity: Point { Point(x: field.one, y: field.one, z: [UInt64](repeating: 0, count: field.count)) }

        /// Whether Montgomery-form (x, y) satisfies the curve equation.
        func isOnCurve(x: [UInt64], y: [UInt64]) -> Bool {
            let f = field
            let x3 = f.multiply(f.multiply(x, x), x)
            let threeX = f.add(f.add(x, x), x)
            return f.multiply(y, y) == f.add(f.subtract(x3, threeX), b)
        }

        func double(_ p: Point) -> Point {
            let f = field
            if MontgomeryModulus.isZero(p.z) { return p }
            let delta = f.multiply(p.z, p.z)
            let gamma = f.multiply(p.y, p.y)
            let beta = f.multiply(p.x, gamma)
            let t = f.multiply(f.subtract(p.x, delta), f.add(p.x, delta))
            let alpha = f.add(f.add(t, t), t)
            let beta2 = f.add(beta, beta)
            let beta4 = f.add(beta2, beta2)
            let x3 = f.subtract(f.multiply(alpha, alpha), f.add(beta4, beta4))
            let yz = f.add(p.y, p.z)
            let z3 = f.subtract(f.subtract(f.multiply(yz, yz), gamma), delta)
            var g8 = f.multiply(gamma, gamma)
            for _ in 0..<3 { g8 = f.add(g8, g8) }
            let y3 = f.subtract(f.multiply(alpha, f.subtract(beta4, x3)), g8)
            return Point(x: x3, y: y3, z: z3)
        }

        func add(_ p: Point, _ q: Point) -> Point {
            let f = field
            if MontgomeryModulus.isZero(p.z) { return q }
            if MontgomeryModulus.isZero(q.z) { return p }
            let z1z1 = f.multiply(p.z, p.z)
            let z2z2 = f.multiply(q.z, q.z)
            let u1 = f.multiply(p.x, z2z2)
            let u2 = f.multiply(q.x, z1z1)
            let s1 = f.multiply(f.multiply(p.y, q.z), z2z2)
            let s2 = f.multiply(f.multiply(q.y, p.z), z1z1)
            let h = f.subtract(u2, u1)
            let rHalf = f.subtract(s2, s1)
            let r = f.add(rHalf, rHalf)
            if MontgomeryModulus.isZero(h) { return MontgomeryModulus.isZero(r) ? double(p) : infinity }
            let h2 = f.add(h, h)
            let i = f.multiply(h2, h2)
            let j = f.multiply(h, i)
            let v = f.multiply(u1, i)
            let x3 = f.subtract(f.subtract(f.multiply(r, r), j), f.add(v, v))
            let s1j = f.multiply(s1, j)
            let y3 = f.subtract(f.multiply(r, f.subtract(v, x3)), f.add(s1j, s1j))
            let zz = f.add(p.z, q.z)
            let z3 = f.multiply(f.subtract(f.subtract(f.multiply(zz, zz), z1z1), z2z2), h)
            return Point(x: x3, y: y3, z: z3)
        }

        /// k·P by double-and-add (reference for tests).
        func multiply(_ p: Point, by k: [UInt64]) -> Point {
            var result = infinity
            for i in (0..<(64 * k.count)).reversed() {
                result = double(result)
                if (k[i >> 6] >> UInt64(i & 63)) & 1 == 1 { result = add(result, p) }
            }
            return result
        }

        /// Canonical affine (x, y) of a point, or nil for infinity.
        func affine(_ p: Point) -> (x: [UInt64], y: [UInt64])? {
            if MontgomeryModulus.isZero(p.z) { return nil }
            let f = field
            let zInverse = f.inverse(p.z)
            let zInverse2 = f.multiply(zInverse, zInverse)
            let x = f.multiply(p.x, zInverse2)
            let y = f.multiply(f.multiply(p.y, zInverse2), zInverse)
            return (f.fromMontgomery(x), f.fromMontgomery(y))
        }

        /// The digest's leftmost bits (as many as the order has) as an integer mod n.
        func digestScalar(_ digest: [UInt8]) -> [UInt64] {
            let size = byteCount
            var padded = [UInt8](repeating: 0, count: size)
            let used = min(digest.count, size)
            for i in 0..<used { padded[size - used + i] = digest[i] }
            var value = [UInt64](repeating: 0, count: order.count)
            var index = 0
            for limb in (0..<order.count).reversed() {
                var w: UInt64 = 0
                for _ in 0..<8 { w = w << 8 | UInt64(padded[index]); index += 1 }
                value[limb] = w
            }
            // The order's top bit is set on these curves, so value < 2n: one subtraction reduces.
            let (reduced, borrow) = MontgomeryModulus.subtract(value, order.limbs)
            return borrow ? value : reduced
        }

        /// A signature component as a scalar in 1…n−1, or the reason it is not.
        func component(_ magnitude: [UInt8], _ name: String) throws(ECDSAError) -> [UInt64] {
            guard !magnitude.isEmpty else { throw .componentOutOfRange(curve: self.name, component: name, reason: "zero") }
            let outOfRange = ECDSAError.componentOutOfRange(curve: self.name, component: name, reason: "not below the group order n")
            guard magnitude.count <= byteCount else { throw outOfRange }
            let padded = [UInt8](repeating: 0, count: byteCount - magnitude.count) + magnitude
            guard let value = order.canonical(bigEndian: padded[...]) else { throw outOfRange }
            return value
        }

        /// ECDSA verification for a public point given in Montgomery-form affine coordinates.
        func verify(_ signature: Signature, digest: [UInt8], x qx: [UInt64], y qy: [UInt64]) throws(ECDSAError) {
            let r = try component(signature.r, "r")
            let s = try component(signature.s, "s")
            let e = digestScalar(digest)
            let n = order
            let w = n.inverse(n.toMontgomery(s))       // s⁻¹ in Montgomery form
            let u1 = n.multiply(e, w)                   // plain e·s⁻¹
            let u2 = n.multiply(r, w)                   // plain r·s⁻¹
            let g = Point(x: gx, y: gy, z: field.one)
            let q = Point(x: qx, y: qy, z: field.one)
            let gq = add(g, q)
            var sum = infinity
            for i in (0..<(64 * n.count)).reversed() {
                sum = double(sum)
                let b1 = (u1[i >> 6] >> UInt64(i & 63)) & 1 == 1
                let b2 = (u2[i >> 6] >> UInt64(i & 63)) & 1 == 1
                if b1 && b2 { sum = add(sum, gq) } else if b1 { sum = add(sum, g) } else if b2 { sum = add(sum, q) }
            }
            guard xCoordinate(of: sum, matches: r) else { throw .signatureMismatch(curve: name) }
        }

        /// Whether the affine x of `p`, reduced mod n, equals r: X = x·Z² for x ∈ {r, r + n < p}.
        private func xCoordinate(of p: Point, matches r: [UInt64]) -> Bool {
            if MontgomeryModulus.isZero(p.z) { return false }
            let f = field
            let zz = f.multiply(p.z, p.z)
            if p.x == f.multiply(f.toMontgomery(r), zz) { return true }
            let (rPlusN, carry) = MontgomeryModulus.add(r, order.limbs)
            guard !carry, MontgomeryModulus.isLess(rPlusN, f.limbs) else { return false }
            return p.x == f.multiply(f.toMontgomery(rPlusN), zz)
        }
    }
}
