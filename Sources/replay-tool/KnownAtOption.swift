import Projections
import SubscriptionDomain

extension Common {
    /// `--as-known-at` of the reports (`history` has its own, a filter of one user's records).
    static let asKnownAt = OptionSpec(name: "--as-known-at", value: "TIME",
                                      help: "only the records the log held at TIME (recorded by then): the answer the ledger gave then (folds the log's prefix)")

    /// The last position `--as-known-at` reads in the log in `directory` (what it held then), or nil without the option.
    static func knownThrough(_ a: ParsedArguments, directory: String) throws -> UInt64? {
        guard let t = try time(a, "--as-known-at") else { return nil }
        try requireLog(directory)
        return try KnownAt.position(directory: directory, at: t)
    }
}
