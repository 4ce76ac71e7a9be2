import Foundation
import Testing
import TestKit
@testable import EventStore

@Suite struct KafkaPartitioning {
    /// Kafka's own vectors: `UtilsTest.testMurmur2` of the Java client.
    @Test func murmur2MatchesKafkasJavaClientVectors() {
        let vectors: [(String, Int32)] = [
            ("21", -973_932_308), ("foobar", -790_332_482), ("a-little-bit-long-string", -985_981_536),
            ("a-little-bit-longer-string", -1_486_304_829), ("lkjh234lh9fiuh90y23oiuhsafujhadof229phr9h19h89h8", -58_897_971),
            ("abc", 479_470_107),
        ]
        for (key, expected) in vectors { #expect(KafkaPartitioner.murmur2(key) == expected, "murmur2(\(key))") }
    }

    @Test func partitionIsThePositiveHashModuloTheCount() {
        // toPositive(x) = x & 0x7fffffff, not abs(x): "21" hashes negative.
        let h = KafkaPartitioner.murmur2("21")
        #expect(KafkaPartitioner.partition(of: "21", count: 7) == Int(UInt32(bitPattern: h) & 0x7fff_ffff) % 7)
        #expect(KafkaPartitioner.partition(of: "21", count: 7) != Int(abs(Int64(h))) % 7)
        #expect(KafkaPartitioner.partition(of: "abc", count: 1) == 0)
        // Every key lands in range, and over many keys every partition is used.
        var used = Set<Int>()
        for i in 0..<1000 {
            let p = KafkaPartitioner.partition(of: "user-\(i)", count: 8)
            #expect((0..<8).contains(p))
            used.insert(p)
        }
        #expect(used.count == 8)
    }

    @Test func partitionTextIsCheckedAtTheDoor() {
        #expect((try? StreamPartition.parse("3/8").get()) == StreamPartition(index: 3, of: 8)!)
        #expect((try? StreamPartition.parse("0/1").get())?.count == 1)
        #expect((try? StreamPartition.parse("9999/10000").get())?.index == 9999)
        for bad in ["8/8", "0/0", "1/10001", "-1/4", "+1/4", "1/", "/4", "1/4/2", "a/b", " 1/4", "1/4 ", "1.0/4", "99999999999999999999/4", ""] {
            #expect(throws: StreamPartition.ParseError.self, "\(bad)") { try StreamPartition.parse(bad).get() }
        }
        #expect(StreamPartition(index: 2, of: 2) == nil)
        #expect(StreamPartition(index: 0, of: StreamPartition.maxCount + 1) == nil)
    }

    @Test func aDeclarationReadsBackAndNothingElseDoes() {
        let p = StreamPartition(index: 5, of: 12)!
        #expect(String(decoding: p.declaration, as: UTF8.self) == "kafka-murmur2 5/12\n")
        #expect(StreamPartition(declaration: p.declaration) == p)
        for bad in ["kafka-murmur2 5/12", "kafka-murmur2 12/12\n", "crc32 5/12\n", "kafka-murmur2  5/12\n", "kafka-murmur2 5/12\n\n", "kafka-murmur2 05/12\n", "kafka-murmur2 5/012\n"] {
            #expect(StreamPartition(declaration: Array(bad.utf8)) == nil, "\(bad)")
        }
    }

    @Test func aDeclarationWithoutItsNewlineIsNotReadAsAShorterOne() {
        // Cut before its newline, "kafka-murmur2 1/23" must not read as the valid "1/2" (nor 12/23 as "12/2").
        for cut in ["kafka-murmur2 1/23", "kafka-murmur2 0/10", "kafka-murmur2 3/45"] {
            #expect(StreamPartition(declaration: Array(cut.utf8)) == nil, "\(cut)")
            #expect(StreamPartition(declaration: Array((cut + "\n").utf8)) != nil, "\(cut)")
        }
    }
}

@Suite struct PartitionDeclaration {
    func records(_ users: [String], prefix: String) -> [ProposedRecord] {
        users.enumerated().map { ProposedRecord(id: "\(prefix)\($0.offset)", stream: $0.element, payload: Array("{}".utf8)) }
    }

    /// Users of partition `p` of `n`, and users of other partitions.
    func users(in p: Int, of n: Int, _ count: Int, inside: Bool = true) -> [String] {
        var out: [String] = []
        var i = 0
        while out.count < count {
            let u = "user-\(i)"
            if (KafkaPartitioner.partition(of: u, count: n) == p) == inside { out.append(u) }
            i += 1
        }
        return out
    }

    @Test func aClaimedLogRefusesStreamsOfOtherPartitionsFromEveryHandle() throws {
        let dir = Scratch()
        let p = StreamPartition(index: 1, of: 4)!
        let log = try EventLog(directory: dir.path)
        try log.claim(p)
        #expect(try EventLog.declaredPartition(directory: dir.path) == p)
        try log.append(records(users(in: 1, of: 4, 5), prefix: "a"))
        #expect(throws: EventStoreError.self) { try log.append(records(users(in: 1, of: 4, 1, inside: false), prefix: "b")) }
        // A handle opened before the claim, or another process, reads the declaration under the lock.
        let other = try EventLog(directory: dir.path)
        #expect(throws: EventStoreError.self) { try other.append(records(users(in: 1, of: 4, 1, inside: false), prefix: "c")) }
        #expect(log.head.position == 5)
        // Claiming the same partition again is fine; another one is refused.
        try other.claim(p)
        #expect(throws: EventStoreError.self) { try other.claim(StreamPartition(index: 1, of: 8)!) }
    }

    @Test func aBatchWithAForeignStreamAnywhereIsRefusedWhole() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.claim(StreamPartition(index: 1, of: 4)!)
        // The foreign stream last, after streams of the partition: nothing of the batch goes in.
        let batch = records(users(in: 1, of: 4, 3) + users(in: 1, of: 4, 1, inside: false), prefix: "a")
        #expect(throws: EventStoreError.self) { try log.append(batch) }
        #expect(log.head.position == 0)
        #expect(try EventLog(directory: dir.path).head.position == 0)
    }

    @Test func aHandleOpenedBeforeAnotherClaimedIsHeldToTheClaim() throws {
        let dir = Scratch()
        let early = try EventLog(directory: dir.path)
        let claimer = try EventLog(directory: dir.path)
        try claimer.claim(StreamPartition(index: 0, of: 2)!)
        #expect(throws: EventStoreError.self) { try early.append(records(users(in: 0, of: 2, 1, inside: false), prefix: "x")) }
        try early.append(records(users(in: 0, of: 2, 1), prefix: "y"))
    }

    @Test func aLogHoldingAForeignStreamCannotBeClaimed() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(records(users(in: 2, of: 3, 3) + users(in: 2, of: 3, 1, inside: false), prefix: "a"))
        #expect(throws: EventStoreError.self) { try log.claim(StreamPartition(index: 2, of: 3)!) }
        #expect(try EventLog.declaredPartition(directory: dir.path) == nil)
        // Every stream of partition 2 of 3 (and so of 2 of 1…): the claim stands.
        let clean = Scratch()
        let ok = try EventLog(directory: clean.path)
        try ok.append(records(users(in: 2, of: 3, 3), prefix: "a"))
        try ok.claim(StreamPartition(index: 2, of: 3)!)
        #expect(try EventLog.declaredPartition(directory: clean.path) == StreamPartition(index: 2, of: 3)!)
    }

    @Test func verifyChecksEveryStreamAgainstTheDeclaredPartition() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        try log.append(records(users(in: 0, of: 2, 4), prefix: "a"))
        try log.claim(StreamPartition(index: 0, of: 2)!)
        let clean = LogVerifier.verify(directory: dir.path)
        #expect(clean.isIntact && clean.partition == StreamPartition(index: 0, of: 2)!)
        // A folder whose declaration was edited (or whose segments were copied in) is damage, named.
        writeFileBytes(dir.path + "/partition", bytes("kafka-murmur2 1/2\n"))
        let edited = LogVerifier.verify(directory: dir.path)
        #expect(!edited.isIntact && edited.damage?.path == dir.path + "/partition")
        #expect(edited.damage?.message.contains("not in 1/2") == true)
    }

    @Test func aDamagedDeclarationIsNamedNotIgnored() throws {
        let dir = Scratch()
        let log = try EventLog(directory: dir.path)
        writeFileBytes(dir.path + "/partition", bytes("kafka-murmur2 4/4\n"))
        #expect(throws: EventStoreError.self) { try EventLog.declaredPartition(directory: dir.path) }
        #expect(throws: EventStoreError.self) { try log.append(records(["u"], prefix: "a")) }
    }
}
