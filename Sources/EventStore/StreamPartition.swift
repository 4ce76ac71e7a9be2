/// Partition `index` of `count`: the streams (users) that Kafka's default partitioner sends to
/// partition `index` of a topic of `count` partitions keyed by stream (`KafkaPartitioner`).
/// A log folder can declare that it holds one partition (`EventLog.claim`), in a one-line file
/// `partition` beside `segments/` (docs/log-format.md).
public struct StreamPartition: Sendable, Equatable, CustomStringConvertible {
    /// From 0, below `count`.
    public let index: Int
    /// From 1 to `maxCount`.
    public let count: Int

    /// The most partitions accepted: more than a Kafka topic sensibly holds (a cluster's brokers
    /// carry a few thousand partitions each), few enough that `partition --of N` can write N files.
    public static let maxCount = 10_000

    /// Nil unless `0 <= index < count <= maxCount`.
    public init?(index: Int, of count: Int) {
        guard count >= 1, count <= Self.maxCount, index >= 0, index < count else { return nil }
        self.index = index
        self.count = count
    }

    /// Parses `p/N` (ASCII digits only); the error is a sentence saying what is wrong.
    public static func parse(_ text: String) -> Result<StreamPartition, ParseError> {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        func number(_ s: Substring) -> Int? {
            guard !s.isEmpty, s.count <= 9, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return Int(s)
        }
        guard parts.count == 2, let p = number(parts[0]), let n = number(parts[1]) else {
            return .failure(ParseError(message: "'\(text)' is not p/N (two whole numbers, such as 3/8)"))
        }
        guard n >= 1, n <= maxCount else { return .failure(ParseError(message: "'\(text)': N must be from 1 to \(maxCount)")) }
        guard p < n else { return .failure(ParseError(message: "'\(text)': p must be from 0 to N-1 (\(n - 1))")) }
        return .success(StreamPartition(index: p, of: n)!)
    }

    /// Why a `p/N` text was refused.
    public struct ParseError: Error, Sendable, Equatable {
        public var message: String
    }

    /// Whether the stream (user id) `key` falls in this partition.
    public func contains(_ key: String) -> Bool { KafkaPartitioner.partition(of: key, count: count) == index }

    /// Whether the stream whose UTF-8 bytes are `key` falls in this partition.
    public func contains(_ key: UnsafeRawBufferPointer) -> Bool { KafkaPartitioner.partition(of: key, count: count) == index }

    /// `p/N`.
    public var description: String { "\(index)/\(count)" }

    /// The name of the partitioner a declaration names: Kafka's Java client default.
    public static let partitionerName = "kafka-murmur2"

    /// The declaration file's content: `kafka-murmur2 p/N` and a newline.
    public var declaration: [UInt8] { Array("\(Self.partitionerName) \(description)\n".utf8) }

    /// Reads a declaration file's content; nil if it is not exactly one.
    public init?(declaration bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        guard text.hasSuffix("\n"), text.utf8.count == bytes.count else { return nil }
        let words = text.dropLast().split(separator: " ", omittingEmptySubsequences: false)
        guard words.count == 2, words[0] == Self.partitionerName, case .success(let p) = Self.parse(String(words[1])),
              p.declaration == bytes   // exactly as written: no leading zeros (`00/1`)
        else { return nil }
        self = p
    }
}
