/// An import that stopped part way through a file: appending failed (a full disk, an I/O error),
/// or reading the input, or keeping a rejected line. Every line before `line` of `file` was
/// appended (or found a duplicate, or rejected and kept) and is counted in the summary; nothing
/// from `line` on was appended. Importing the file again is safe: what went in counts as duplicates.
public struct ImportInterrupted: Error, CustomStringConvertible {
    /// The file as named in messages (`<stdin>` for standard input).
    public var file: String
    /// The first line (from 1) whose events did not go in.
    public var line: Int
    /// What failed.
    public var underlying: any Error

    public init(file: String, line: Int, underlying: any Error) {
        self.file = file
        self.line = line
        self.underlying = underlying
    }

    public var description: String {
        "\(file):\(line): import stopped, nothing from this line on was appended: \(underlying)"
    }
}
