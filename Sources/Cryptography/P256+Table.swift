extension P256 {
    /// Multiples of the generator for fixed-base multiplication: entry `15·w + (j − 1)` holds
    /// j·16ʷ·G (w = 0…63, j = 1…15) in affine form, so u·G is at most 64 mixed additions and no
    /// doubling. Built once on first use (960 points, one field inversion shared by all).
    static let generatorTable: [AffinePoint] = {
        var points = [JacobianPoint]()
        points.reserveCapacity(64 * 15)
        var base = JacobianPoint(generator)
        for _ in 0..<64 {
            var multiple = base
            for _ in 1...15 {
                points.append(multiple)
                multiple = multiple.adding(base)
            }
            base = multiple // 16·base
        }
        return affineBatch(points)
    }()

    /// Affine forms of points none of which is infinity, by Montgomery's simultaneous inversion.
    static func affineBatch(_ points: [JacobianPoint]) -> [AffinePoint] {
        guard !points.isEmpty else { return [] }
        var prefix = [FieldElement]()
        prefix.reserveCapacity(points.count)
        var running = FieldElement.one
        for p in points {
            running = running * p.z
            prefix.append(running)
        }
        var inverse = running.inverted()
        var out = [AffinePoint](repeating: AffinePoint(x: .zero, y: .zero), count: points.count)
        for i in stride(from: points.count - 1, through: 0, by: -1) {
            let zInverse = i > 0 ? inverse * prefix[i - 1] : inverse
            inverse = inverse * points[i].z
            let zInverse2 = zInverse.squared()
            out[i] = AffinePoint(x: points[i].x * zInverse2, y: points[i].y * zInverse2 * zInverse)
        }
        return out
    }

    /// u·G from the table.
    static func multiplyGenerator(_ u: Limbs) -> JacobianPoint {
        let table = generatorTable
        var result = JacobianPoint.infinity
        for window in 0..<64 {
            let digit = u.nibble(window)
            if digit != 0 { result = result.adding(table[15 * window + digit - 1]) }
        }
        return result
    }
}
