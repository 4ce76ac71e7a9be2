import Foundation
import Testing
import TestKit
import LedgerFixture
import EventStore
@_spi(Testing) @testable import ProjectionStorage
@testable import Projections

/// One record in three (by position) of the cache's build is decoded on the second thread: a
/// record there that is not its stream's event is named by its position, and before any later one
/// the first thread met; nothing is written.
extension EventCaches {
    /// A log of `count` account events, one per user, whose records at `wrong` name another user than their stream.
    static func log(_ count: Int, wrong: Set<Int>, in scratch: Scratch) throws -> EventLog {
        let log = try EventLog(directory: scratch.log)
        var records: [ProposedRecord] = []
        for n in 1...count {
            let user = "u\(n)", named = wrong.contains(n) ? "someone-else" : user
            records.append(ProposedRecord(id: "e\(n)", stream: user, payload: Array(line("e\(n)", "account_created", named, "2026-01-01T00:00:00Z").utf8)))
        }
        for start in stride(from: 0, to: records.count, by: 1_000) { try log.append(Array(records[start..<min(start + 1_000, records.count)])) }
        return try EventLog(directory: scratch.log, access: .read)
    }

    @Test(arguments: [
        // (records that name another user, the position the build must name). Positions that are
        // multiples of 3 are decoded on the second thread: 9,000 there, 12,500 on the first in a
        // later batch; 300 there and 301 here in the same batch (the first thread meets 301
        // before 300 is decoded); 301 here before 600 there.
        ([9_000], 9_000), ([100], 100), ([9_000, 12_500], 9_000), ([5_000, 9_000], 5_000), ([300, 301], 300), ([301, 600], 301),
    ])
    func aRecordThatIsNotItsStreamsEventIsNamedWhicheverThreadDecodesIt(_ wrong: [Int], _ named: Int) throws {
        let scratch = Scratch()
        let log = try Self.log(14_000, wrong: Set(wrong), in: scratch)
        let error = #expect(throws: ProjectionError.self) { try EventCache.build(log) }
        #expect(error?.position == UInt64(named), "\(String(describing: error))")
        #expect(error.map { "\($0)" }?.contains("is not the record's stream 'u\(named)'") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: EventCache.path(scratch.log)), "no cache is written")
    }
}
