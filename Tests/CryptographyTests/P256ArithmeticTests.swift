import Testing
@testable import Cryptography

/// The specialised P-256 arithmetic against its own slow reference paths and against the
/// generic limb-array curve code, on seeded random scalars.
@Suite struct P256ArithmeticTests {
    static let seed: UInt64 = 0x2025_0256

    static func randomScalar(_ random: inout ECDSATestRandom) -> P256.Limbs {
        P256.Scalar.reduced(P256.Limbs(random.next(), random.next(), random.next(), random.next()))
    }

    @Test("Field: inverse, sums, differences and Montgomery round trips agree with the generic modulus")
    func field() {
        var random = ECDSATestRandom(seed: Self.seed)
        let generic = ECDSA.WeierstrassCurve.p256.field
        for _ in 0..<200 {
            let a = P256.FieldElement(montgomeryOf: P256.Scalar.reduced(P256.Limbs(random.next(), random.next(), random.next(), random.next() >> 1)))
            let b = P256.FieldElement(montgomeryOf: P256.Limbs(random.next(), random.next(), random.next(), random.next() >> 1))
            #expect((a + b) - b == a, "seed \(Self.seed)")
            #expect(a * b == b * a, "seed \(Self.seed)")
            if !a.isZero { #expect(a * a.inverted() == .one, "seed \(Self.seed)") }
            #expect((a * b).limbs.array == generic.multiply(a.limbs.array, b.limbs.array), "seed \(Self.seed)")
            #expect(P256.FieldElement(montgomeryOf: a.canonical) == a, "seed \(Self.seed)")
        }
        #expect(P256.FieldElement(canonical: P256.FieldElement.modulus) == nil)
    }

    @Test("Scalar inverse: s · s⁻¹ = 1 mod n for random s, and for n − 1")
    func scalarInverse() {
        var random = ECDSATestRandom(seed: Self.seed &+ 1)
        var samples = (0..<50).map { _ in Self.randomScalar(&random) }
        samples.append(P256.Limbs.subtract(P256.Scalar.modulus, P256.Limbs(1, 0, 0, 0)))
        samples.append(P256.Limbs(1, 0, 0, 0))
        for s in samples where !s.isZero {
            let inverse = P256.Scalar.montgomeryInverse(s)
            #expect(P256.Scalar.multiply(plain: s, montgomery: inverse) == P256.Limbs(1, 0, 0, 0), "seed \(Self.seed &+ 1)")
        }
    }

    @Test("u·G from the table equals the double-and-add reference and the generic curve; n·G is infinity")
    func generatorMultiplication() {
        var random = ECDSATestRandom(seed: Self.seed &+ 2)
        let curve = ECDSA.WeierstrassCurve.p256
        let g = P256.JacobianPoint(P256.generator)
        let genericG = ECDSA.WeierstrassCurve.Point(x: curve.gx, y: curve.gy, z: curve.field.one)
        var scalars = (0..<20).map { _ in Self.randomScalar(&random) }
        scalars += [P256.Limbs(1, 0, 0, 0), P256.Limbs(2, 0, 0, 0), P256.Limbs(0xffff, 0, 0, 0),
                    P256.Limbs.subtract(P256.Scalar.modulus, P256.Limbs(1, 0, 0, 0))]
        for k in scalars {
            let fast = P256.multiplyGenerator(k).affine
            #expect(fast == g.multiplied(by: k).affine, "seed \(Self.seed &+ 2)")
            let generic = curve.affine(curve.multiply(genericG, by: k.array))
            #expect(fast?.x.canonical.array == generic?.x && fast?.y.canonical.array == generic?.y, "seed \(Self.seed &+ 2)")
        }
        #expect(P256.multiplyGenerator(.zero).isInfinity)
        #expect(g.multiplied(by: P256.Scalar.modulus).isInfinity)
        #expect(P256.multiply(P256.generator, by: P256.Scalar.modulus).isInfinity)
        #expect(P256.generator.isOnCurve)
    }

    @Test("k·Q by width-5 NAF equals double-and-add for random points and scalars; NAF digits rebuild k")
    func nafMultiplication() {
        var random = ECDSATestRandom(seed: Self.seed &+ 3)
        for _ in 0..<20 {
            let q = P256.multiplyGenerator(Self.randomScalar(&random)).affine ?? P256.generator
            let k = Self.randomScalar(&random)
            #expect(P256.multiply(q, by: k).affine == P256.JacobianPoint(q).multiplied(by: k).affine, "seed \(Self.seed &+ 3)")
            let digits = P256.nonAdjacentForm(k)
            #expect(digits.allSatisfy { $0 == 0 || ($0 % 2 != 0 && abs(Int($0)) <= 15) })
            // Rebuild k from its digits with the generic modulus arithmetic (mod n).
            let n = ECDSA.WeierstrassCurve.p256.order
            var rebuilt = [UInt64](repeating: 0, count: 4)
            for digit in digits.reversed() {
                rebuilt = n.add(rebuilt, rebuilt)
                let magnitude: [UInt64] = [UInt64(abs(Int(digit))), 0, 0, 0]
                rebuilt = digit >= 0 ? n.add(rebuilt, magnitude) : n.subtract(rebuilt, magnitude)
            }
            #expect(rebuilt == k.array, "seed \(Self.seed &+ 3)")
        }
    }

    @Test("Adding a point to itself doubles it; adding its negation gives infinity")
    func specialCases() {
        let g = P256.JacobianPoint(P256.generator)
        let twoG = g.doubled()
        #expect(g.adding(g).affine == twoG.affine)
        #expect(g.adding(P256.generator).affine == twoG.affine)
        #expect(g.adding(g.negated()).isInfinity)
        #expect(g.adding(P256.generator.negated()).isInfinity)
        #expect(P256.JacobianPoint.infinity.adding(g).affine == P256.generator)
        #expect(g.adding(P256.JacobianPoint.infinity).affine == P256.generator)
        #expect(P256.JacobianPoint.infinity.doubled().isInfinity)
    }
}
