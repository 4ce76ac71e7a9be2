import Foundation
import EventStore
import Projections
import Platform
import Ingest
import Reports

/// `import --follow -`: streaming ingest from a standard input that may never end (CONTRACT.md
/// §5.1). Lines are committed in groups as soon as the input pauses, each group appended in one
/// atomic, fsynced batch through the same importer as `import`, then acknowledged by one JSON
/// line on stdout. EOF, SIGTERM or SIGINT commit what is held and end the run.
enum FollowImport {
    /// A held line waits at most this long for more input before its group is committed, when
    /// input keeps coming without a pause (otherwise it is committed as soon as a read would wait).
    static let maxHoldNanoseconds: UInt64 = 2_000_000

    /// Runs the import; returns the exit status (1 if any line was rejected over the whole run).
    static func run(importer: EventImporter, logDirectory: String) throws -> Int32 {
        let stop = try PlatformStream.StopSignals.install()
        var input = try FollowInput(stop: stop)
        var summary = EventImporter.Summary()
        var kept = RejectedLinesFile(logDirectory: logDirectory)
        let end: EventImporter.FollowEnd
        do {
            end = try importer.follow(file: "<stdin>", read: { try input.read(into: $0, holding: $1) }, rejected: &kept, into: &summary) { group in
                Console.out(acknowledgment(group) + "\n")
                // An acknowledgment that cannot be written ends the run: the sender must not
                // take silence for a commit it never saw.
                try Console.flushOrThrow()
            }
        } catch {
            try? kept.close()
            throw error
        }
        try kept.close()
        if case .stopped(let held, let line) = end {
            let name = input.signal.map(PlatformStream.StopSignals.name) ?? "a signal"
            Console.err("replay-tool import: stopped by \(name): every complete line read was committed and acknowledged"
                        + (held > 0 ? "; the incomplete line \(line) (\(held) bytes so far) was left out, unacknowledged" : ""))
        }
        return summary.rejected == 0 ? 0 : 1
    }

    /// One acknowledgment line: `first`, `last` (null when the group appended nothing),
    /// `appended`, `duplicates`, `rejected`, then `skipped` and `lines` ([from, to] of the input).
    static func acknowledgment(_ g: EventImporter.Group) -> String {
        JSON.object([
            ("first", g.first.map { .int(Int($0)) } ?? .null), ("last", g.last.map { .int(Int($0)) } ?? .null),
            ("appended", .int(g.appended)), ("duplicates", .int(g.duplicates)), ("rejected", .int(g.rejected)),
            ("skipped", .int(g.skipped)), ("lines", .array([.int(g.lines.lowerBound), .int(g.lines.upperBound)])),
        ]).rendered
    }
}

/// Standard input as `EventImporter.follow` reads it. With nothing held it waits for input as
/// long as it takes; with complete lines held it answers `.pause` as soon as no more input is
/// ready at once, or when they have been held `maxHold` (input that never pauses), so that a
/// line's group is committed within milliseconds of its last byte. A stop signal wins over input.
struct FollowInput {
    let stop: PlatformStream.StopSignals
    var maxHold = FollowImport.maxHoldNanoseconds
    /// The signal that stopped the run, once one did.
    private(set) var signal: Int32?
    private var heldSince: UInt64?
    private let file: InputFile

    init(stop: PlatformStream.StopSignals) throws {
        self.stop = stop
        file = try InputFile("-")
    }

    mutating func read(into buffer: UnsafeMutableRawBufferPointer, holding: Bool) throws -> EventImporter.InputRead {
        var timeout = -1
        if holding {
            let now = PlatformStream.monotonicNanoseconds()
            let since = heldSince ?? now
            heldSince = since
            if now - since >= maxHold {
                heldSince = nil
                return .pause
            }
            timeout = 0
        } else {
            heldSince = nil
        }
        switch try PlatformStream.wait(input: file.descriptor, stop: stop.descriptor, timeoutMilliseconds: timeout, path: file.path) {
        case .stop:
            signal = stop.take()
            return .stop
        case .timeout:
            heldSince = nil
            return .pause
        case .input:
            let n = try file.read(into: buffer)
            return n == 0 ? .end : .bytes(n)
        }
    }
}
