/// "Did you mean": the known name nearest to one that was mistyped, by edit distance.
enum Suggestion {
    /// The candidate nearest `typed` (Damerau–Levenshtein: insert, delete, replace, swap two
    /// neighbours), if it is near enough to be what was meant: at most 1 edit for names up to 4
    /// characters, 2 up to 8, else 3; a tie goes to the first candidate.
    static func nearest(_ typed: String, among candidates: [String]) -> String? {
        let limit = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (name: String, distance: Int)?
        for c in candidates {
            let d = distance(typed, c)
            if d <= limit, d < (best?.distance ?? .max) { best = (c, d) }
        }
        return best?.name
    }

    /// The optimal string alignment distance between `a` and `b` (characters).
    static func distance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        // Past a length difference of 3 nothing is suggested; long inputs cost no quadratic table.
        guard abs(x.count - y.count) <= 3, x.count <= 64, y.count <= 64 else { return .max }
        if x.isEmpty || y.isEmpty { return max(x.count, y.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] { d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1) }
            }
        }
        return d[x.count][y.count]
    }

    /// ` (did you mean 'NAME'?)`, or nothing when no candidate is near.
    static func hint(_ typed: String, among candidates: [String]) -> String {
        nearest(typed, among: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }
}
