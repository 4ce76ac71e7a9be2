import Foundation
import Testing
import TestKit
@testable import EventStore
import SubscriptionDomain
@testable import Projections
import Ingest

/// `EventImporter.follow` driven by a scripted input: which lines make a group,
/// what each acknowledgment says, and what a stop leaves out. The real binary with real pipes,
/// signals and timing is tested in ReplayToolTests/FollowImportTests.swift.
@Suite struct FollowImporter {
    enum Step {
        case bytes(String), pause, end, stop
    }

    /// What happened, in order: rejections, syncs, acknowledgments.
    final class Trace { var events: [String] = [] }

    struct Recording: RejectedLineSink {
        let trace: Trace
        var events: [String] { trace.events }
        var rejected: [String] = []
        var current: [UInt8] = []
        mutating func write(_ bytes: UnsafeRawBufferPointer) throws { current += bytes }
        mutating func reject(_ rejection: EventImporter.Rejection) throws {
            rejected.append(String(decoding: current, as: UTF8.self))
            current = []
            trace.events.append("reject \(rejection.line)")
        }
        mutating func sync() throws { trace.events.append("sync") }
    }

    struct Run {
        var groups: [EventImporter.Group] = []
        var holding: [Bool] = []
        var end: EventImporter.FollowEnd
        var summary: EventImporter.Summary
        var sink: Recording
        var ids: [String]
    }

    static func event(_ id: String, note: String = "") -> String {
        #"{"id":"\#(id)","type":"account_created","user":"u","time":"2026-01-01T00:00:00Z","data":{"note":"\#(note)"}}"#
    }

    static func run(_ steps: [Step], batchSize: Int = 1000) throws -> Run {
        let dir = Scratch()
        var options = EventLog.Options()
        options.maxRecordSize = 512
        let log = try EventLog(directory: dir.log, options: options)
        var importer = EventImporter(log: log)
        importer.batchSize = batchSize
        var summary = EventImporter.Summary()
        let trace = Trace()
        var sink = Recording(trace: trace)
        var groups: [EventImporter.Group] = []
        var holding: [Bool] = []
        var script = steps[...]
        let end = try importer.follow(file: "-", read: { buffer, held in
            holding.append(held)
            switch script.popFirst() ?? .end {
            case .bytes(let s):
                let bytes = Array(s.utf8)
                precondition(bytes.count <= buffer.count)
                buffer.copyBytes(from: bytes)
                return .bytes(bytes.count)
            case .pause: return .pause
            case .end: return .end
            case .stop: return .stop
            }
        }, rejected: &sink, into: &summary) { group in
            groups.append(group)
            trace.events.append("ack \(group.lines)")
        }
        let ids = try EventLog(directory: dir.log, access: .read).records().map(\.id)
        return Run(groups: groups, holding: holding, end: end, summary: summary, sink: sink, ids: ids)
    }

    static func group(_ first: UInt64?, _ last: UInt64?, _ lines: ClosedRange<Int>, appended: Int = 0, duplicates: Int = 0, rejected: Int = 0) -> EventImporter.Group {
        var g = EventImporter.Group(first: first, last: last, lines: lines)
        g.appended = appended
        g.duplicates = duplicates
        g.rejected = rejected
        return g
    }

    @Test func aPauseCommitsTheCompleteLinesAndAPartialLineWaitsForItsEnd() throws {
        let a = Self.event("a"), b = Self.event("b"), c = Self.event("c")
        let half = c.index(c.startIndex, offsetBy: 30)
        let r = try Self.run([
            .bytes(a + "\n" + b + "\n"), .pause,
            .bytes(String(c[..<half])), .pause, .bytes(String(c[half...]) + "\n"), .pause,
            .bytes(c + "\n"), .end,
        ])
        #expect(r.groups == [
            Self.group(1, 2, 1...2, appended: 2),
            Self.group(3, 3, 3...3, appended: 1),
            Self.group(nil, nil, 4...4, duplicates: 1),
        ])
        // Lines are held after a read that completed some, never after one that only began a line.
        #expect(r.holding == [false, true, false, false, false, true, false, true])
        #expect(r.end == .endOfInput)
        #expect(r.ids == ["a", "b", "c"])
    }

    @Test func aPauseWithNothingHeldAcknowledgesNothing() throws {
        let r = try Self.run([.pause, .bytes(Self.event("a") + "\n"), .pause, .pause, .end])
        #expect(r.groups == [Self.group(1, 1, 1...1, appended: 1)])
    }

    @Test func theEndOfInputEndsALastLineWithoutItsNewline() throws {
        let r = try Self.run([.bytes(Self.event("a")), .end])
        #expect(r.groups == [Self.group(1, 1, 1...1, appended: 1)])
        #expect(r.end == .endOfInput)
    }

    @Test func aFullBatchEndsAGroupWithoutAPause() throws {
        let lines = (1...5).map { Self.event("e\($0)") + "\n" }.joined()
        let r = try Self.run([.bytes(lines), .end], batchSize: 2)
        #expect(r.groups == [
            Self.group(1, 2, 1...2, appended: 2), Self.group(3, 4, 3...4, appended: 2), Self.group(5, 5, 5...5, appended: 1),
        ])
    }

    @Test func rejectedAndBlankLinesBelongToTheirGroupAndAreSyncedBeforeItsAcknowledgment() throws {
        let r = try Self.run([.bytes(Self.event("a") + "\nnot json\n\n"), .pause, .bytes("\n"), .pause, .end])
        #expect(r.groups == [Self.group(1, 1, 1...3, appended: 1, rejected: 1), Self.group(nil, nil, 4...4)])
        #expect(r.sink.events == ["reject 2", "sync", "ack 1...3", "sync", "ack 4...4"])
        #expect(r.sink.rejected == ["not json"])
        #expect(r.summary.rejected == 1 && r.summary.appended == 1)
    }

    @Test func aStopCommitsTheCompleteLinesAndLeavesOutAnIncompleteOne() throws {
        let r = try Self.run([.bytes(Self.event("a") + "\n" + "{\"id\":\"b\""), .stop])
        #expect(r.groups == [Self.group(1, 1, 1...1, appended: 1)])
        #expect(r.end == .stopped(heldBytes: 9, line: 2))
        #expect(r.ids == ["a"])
    }

    @Test func aStopWithNothingHeldAcknowledgesNothing() throws {
        let r = try Self.run([.bytes(Self.event("a") + "\n"), .pause, .stop])
        #expect(r.groups == [Self.group(1, 1, 1...1, appended: 1)])
        #expect(r.end == .stopped(heldBytes: 0, line: 2))
    }

    /// A line already over the limit (1,024 bytes here) is rejected at a stop: its end cannot save it.
    @Test func aStopRejectsALineAlreadyOverTheLimit() throws {
        let r = try Self.run([.bytes(Self.event("a") + "\n" + String(repeating: "x", count: 1500)), .stop])
        #expect(r.groups == [Self.group(1, 1, 1...2, appended: 1, rejected: 1)])
        #expect(r.end == .stopped(heldBytes: 0, line: 3))
        #expect(r.sink.rejected == [String(repeating: "x", count: 1500)])
    }
}
