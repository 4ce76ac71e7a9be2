/// The rows one sync stages: the examined users' rows, their keys (to find rows to delete),
/// their ids (to replace their skip reports) and the users the table cannot hold.
struct SyncBatch {
    let target: SyncTarget
    private(set) var rows: [[String?]] = []
    private(set) var keys: [String] = []
    private(set) var users: [String] = []
    private(set) var skipped: [(user: String, reason: String)] = []
    private(set) var examined = 0

    init(target: SyncTarget) { self.target = target }

    /// Adds one examined user's outcome; `keyed`: an incremental sync, which stages keys and ids.
    mutating func add(_ row: SyncRow, user: String, keyed: Bool) {
        examined += 1
        if keyed { users.append(Self.printable(user)) }
        switch row {
        case .row(let key, let fields):
            rows.append(fields)
            if keyed { keys.append(key) }
        case .none(let key):
            if keyed, let key { keys.append(key) }
        case .skipped(let reason):
            skipped.append((Self.printable(user), reason))
        }
    }

    /// Settles rows the table's unique constraints would refuse, before anything is sent:
    /// two ledger users whose ids are the same UUID in other letter case, and (MirrorMate's
    /// unique `transaction_id`) two users whose rows name the same original transaction (a
    /// restore on a second account without a transfer). The user whose id sorts first keeps the
    /// row; the other is reported.
    mutating func settleConflicts() {
        var drop: Set<Int> = []
        func settle(_ column: Int, _ why: (String, String) -> String, normalize: (String) -> String) {
            var owner: [String: Int] = [:]
            for (i, r) in rows.enumerated() where !drop.contains(i) {
                guard let value = r[column].map(normalize) else { continue }
                guard let j = owner[value] else { owner[value] = i; continue }
                let (keep, lose) = rows[j][0]! <= rows[i][0]! ? (j, i) : (i, j)
                owner[value] = keep
                drop.insert(lose)
                skipped.append((rows[lose][0]!, why(value, rows[keep][0]!)))
            }
        }
        if target.keyType == "uuid" {
            settle(0, { _, other in "user id is the same UUID as user \(other)'s" }, normalize: { $0.lowercased() })
        }
        if target == .mirrormate {
            settle(1, { txn, other in "original transaction \(txn) is also user \(other)'s" }, normalize: { $0 })
        }
        if !drop.isEmpty { rows = rows.enumerated().filter { !drop.contains($0.offset) }.map(\.element) }
        var seen: Set<String> = []
        keys = keys.filter { seen.insert(target.keyType == "uuid" ? $0.lowercased() : $0).inserted }
        seen = []
        skipped = skipped.filter { seen.insert($0.user).inserted }
    }

    /// Streams the staged data as COPY blocks.
    func send(to send: (String) throws -> Void, incremental: Bool) throws {
        try send("COPY sync_rows FROM STDIN;\n")
        var chunk = ""
        for r in rows {
            chunk += SQLText.copyLine(r)
            if chunk.utf8.count >= 1 << 16 { try send(chunk); chunk = "" }
        }
        try send(chunk + "\\.\n")
        if incremental {
            try send("COPY sync_keys FROM STDIN;\n" + keys.map { SQLText.copyLine([$0]) }.joined() + "\\.\n")
            try send("COPY sync_users FROM STDIN;\n" + users.map { SQLText.copyLine([$0]) }.joined() + "\\.\n")
        }
        try send("COPY sync_skipped FROM STDIN;\n" + skipped.map { SQLText.copyLine([$0.user, $0.reason]) }.joined() + "\\.\n")
    }

    /// A user id as a `text` value: PostgreSQL text cannot hold NUL.
    static func printable(_ user: String) -> String {
        user.utf8.contains(0) ? String(user.map { $0 == "\0" ? "\u{FFFD}" : $0 }) : user
    }
}
