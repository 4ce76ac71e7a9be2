/// Kafka's default partitioner for keyed records, as its Java client computes it
/// (`org.apache.kafka.common.utils.Utils.murmur2` and `toPositive`): a record keyed `k` goes to
/// partition `(murmur2(utf8(k)) & 0x7fffffff) % N`. Keying a topic by user id then puts every event
/// of a user in one partition, the one `StreamPartition` names for that user.
///
/// librdkafka (and so `kcat`) defaults to a different hash (`consistent_random`, CRC32): its
/// producers must set `partitioner=murmur2_random` to agree with this (docs/scaling.md).
public enum KafkaPartitioner {
    /// Kafka's murmur2 of `bytes` (seed 0x9747b28c), as the signed 32-bit value Java returns.
    public static func murmur2(_ bytes: UnsafeRawBufferPointer) -> Int32 {
        let m: UInt32 = 0x5bd1_e995
        let r: UInt32 = 24
        let length = bytes.count
        var h: UInt32 = 0x9747_b28c ^ UInt32(truncatingIfNeeded: length)
        let whole = length / 4
        for i in 0..<whole {
            let b = 4 * i
            var k = UInt32(bytes[b]) | UInt32(bytes[b + 1]) << 8 | UInt32(bytes[b + 2]) << 16 | UInt32(bytes[b + 3]) << 24
            k &*= m
            k ^= k >> r
            k &*= m
            h &*= m
            h ^= k
        }
        // The last 0…3 bytes, as Java's switch falls through.
        let tail = whole * 4
        switch length % 4 {
        case 3:
            h ^= UInt32(bytes[tail + 2]) << 16
            h ^= UInt32(bytes[tail + 1]) << 8
            h ^= UInt32(bytes[tail])
            h &*= m
        case 2:
            h ^= UInt32(bytes[tail + 1]) << 8
            h ^= UInt32(bytes[tail])
            h &*= m
        case 1:
            h ^= UInt32(bytes[tail])
            h &*= m
        default:
            break
        }
        h ^= h >> 13
        h &*= m
        h ^= h >> 15
        return Int32(bitPattern: h)
    }

    /// Kafka's murmur2 of a string's UTF-8 bytes.
    public static func murmur2(_ key: String) -> Int32 {
        var key = key
        return key.withUTF8 { murmur2(UnsafeRawBufferPointer($0)) }
    }

    /// The partition, of `count` (at least 1), that Kafka's Java client gives a record keyed by these bytes.
    public static func partition(of key: UnsafeRawBufferPointer, count: Int) -> Int {
        precondition(count > 0, "a topic has at least one partition")
        return Int(UInt32(bitPattern: murmur2(key)) & 0x7fff_ffff) % count
    }

    /// The partition, of `count` (at least 1), that Kafka's Java client gives a record keyed `key`.
    public static func partition(of key: String, count: Int) -> Int {
        var key = key
        return key.withUTF8 { partition(of: UnsafeRawBufferPointer($0), count: count) }
    }
}
