import Testing
import TestKit
import LedgerFixture
import EventStore
import EventCodec
import Transparency
@testable import LogProofs

/// The export line (the leaf data of the log's tree) and its leaf hash: the line is the event
/// re-encoded with its frame's position, version and recorded time, and the leaf hash is RFC 9162's
/// SHA-256(0x00 ‖ line), checked here against a SHA-256 that shares no code with the module's.
@Suite struct ExportLineLeaves {
    @Test("each record's export line is its event with the frame's metadata, and names the event's user")
    func linesCarryTheFrame() throws {
        let log = try ProofLog()
        let lines = try log.exportLines()
        #expect(lines.count == LedgerFixture.story.count)
        for (i, bytes) in lines.enumerated() {
            let line = String(decoding: bytes, as: UTF8.self)
            let event = try EventCodec.decode(line), original = try EventCodec.decode(LedgerFixture.story[i])
            #expect(event.id == original.id && event.user == original.user && event.time == original.time && event.type == original.type)
            #expect(line.contains(#""position":\#(i + 1),"#), "\(line)")
            #expect(!bytes.contains(0x0A), "one line")
            #expect(ExportLine.user(ofLine: line) == original.user)
        }
        #expect(ExportLine.user(ofLine: "not json") == nil)
        #expect(ExportLine.user(ofLine: #"{"id":"1","type":"purchase"}"#) == nil)
    }

    @Test("the three encoders (record view, record, raw payload) write the same line")
    func encodersAgree() throws {
        let log = try ProofLog()
        let eventLog = try EventLog(directory: log.path, access: .read)
        try eventLog.forEach(through: 5) { view in
            var a: [UInt8] = [], b: [UInt8] = []
            let user = try ExportLine.encode(view, into: &a)
            try ExportLine.encode(payload: view.payload, position: view.position, version: view.version, recorded: view.recorded, into: &b)
            #expect(a == b && user == view.streamString)
        }
    }

    @Test("a leaf hash is SHA-256 of 0x00 then the line, and the roots are RFC 9162's over the lines")
    func leafAndRootHashes() throws {
        let lines = try ProofLog().exportLines()
        for line in lines {
            #expect(MerkleTree.leafHash(line).bytes == ReferenceSHA256.leaf(line))
            #expect(MerkleTree.leafHash(line).bytes != ReferenceSHA256.hash(line), "the 0x00 prefix separates leaves from nodes")
        }
        var accumulator = MerkleAccumulator()
        for (n, line) in lines.enumerated() {
            _ = accumulator.append(leaf: line)
            #expect(accumulator.root.bytes == ReferenceSHA256.root(lines[...n]), "size \(n + 1)")
        }
        // The reference itself, against FIPS 180-4's "abc" example.
        #expect(hex(ReferenceSHA256.hash(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }
}
