import Foundation
import Testing
import LedgerFixture
import TestKit
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform

/// A kept projection names the log head it folded (position and chain hash) and is never served
/// for a log it does not match.
@Suite struct ProjectionTrust {
    static let lines = KeptProjections.lines
    static let instant = KeptProjections.instant

    /// Item 1 of the trust issue: a rebuild while another handle appends must checkpoint exactly
    /// the records it folded, or the next refresh folds the gap a second time.
    @Test func aRebuildWhileAnotherProcessAppendsChecksOutExactlyWhatItFolded() throws {
        for partitions in [1, 3] {
            let log = try TestLog(Array(Self.lines.prefix(600)))
            var store = ProjectionStore(logDirectory: log.path, profile: .handz)
            store.partitions = partitions
            // Right after the refresh opened the log, another writer appends one paywall view per user,
            // each its user's latest event (so applying it twice would not look out of order).
            let views = (0..<300).map { line("late-view-\($0)", "paywall_viewed", "u_\($0)", "2026-04-30T00:00:00Z", #"{"context":"settings"}"#) }
            store.afterOpeningLog = { try KeptProjections.append(views[...], to: log) }
            let first = try store.refresh()
            #expect(first.rebuilt)
            store.afterOpeningLog = nil
            let second = try store.refresh()
            #expect(!second.rebuilt && second.recordsRead > 0 && second.position == first.position + UInt64(second.recordsRead))
            KeptProjections.same(try store.keptSnapshot(asOf: Self.instant), try log.replay(at: "2026-05-01T00:00:00Z"))
        }
    }

    @Test func aFullRebuildFoldsOnlyThroughTheHeadItWasAskedFor() throws {
        let log = try TestLog(Array(Self.lines.prefix(500)))
        let head = try EventLog(directory: log.path, access: .read).head.position
        let before = try log.replay(at: "2026-05-01T00:00:00Z")
        try KeptProjections.append(Self.lines[500..<900], to: log)
        let pinned = try Replay.run(directory: log.path, options: ReplayOptions(profile: .handz, asOf: Self.instant), through: head)
        #expect(pinned.headPosition == head)
        KeptProjections.same(pinned, before)
    }

    /// Item 2: delete the segments, keep projections/, import another file: the old projection must not answer.
    @Test func aProjectionOfAnotherLogIsNeverServed() throws {
        let log = try TestLog(Array(Self.lines.prefix(700)))
        let store = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try store.refresh().rebuilt)
        try FileManager.default.removeItem(atPath: log.path + "/segments")
        // Another log, longer than the first, so position alone would look like a catch-up.
        try KeptProjections.append(Self.lines[300..<1200], to: log)
        let r = try store.refresh()
        #expect(r.rebuilt)
        let other = try TestLog(Array(Self.lines[300..<1200]))
        KeptProjections.same(try store.keptSnapshot(asOf: Self.instant), try other.replay(at: "2026-05-01T00:00:00Z"))
    }

    @Test func aProfileNameNeverLeavesTheProjectionsFolder() throws {
        let log = try TestLog(Array(Self.lines.prefix(50)))
        for name in ["../../../../outside/evil", "/etc/passwd", "..", ".hidden", "a/b", "", "naïve name", String(repeating: "x", count: 300)] {
            var profile = Profile.handz
            profile.name = name
            let store = ProjectionStore(logDirectory: log.path, profile: profile)
            let file = String(store.path.dropFirst((log.path + "/projections/").count))
            #expect(!file.contains("/") && !file.hasPrefix(".") && file.count < 80, "\(name) -> \(file)")
            try store.refresh()
            #expect(FileManager.default.fileExists(atPath: store.path))
        }
        let made = try FileManager.default.contentsOfDirectory(atPath: log.path)
        #expect(Set(made) == ["segments", "writer.lock", "projections", "indexes"])
    }

    @Test func aFailedProjectionWriteLeavesNoTemporaryFileAndWritersNeverShareOne() throws {
        let scratch = Scratch()
        let dir = scratch.log
        let path = dir + "/x.projection"
        do {
            let a = try DurableFile.Replacement(path: path)
            let b = try DurableFile.Replacement(path: path)
            try ([1, 2, 3] as [UInt8]).withUnsafeBytes { try a.append($0) }
            try ([4] as [UInt8]).withUnsafeBytes { try b.append($0) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).count == 2)
            try b.commit()
            // a is dropped without a commit, as a write that failed on a full disk is.
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir) == ["x.projection"])
        #expect(try DurableFile.read(path: path) == [4])
        // A temporary file left by a process killed while writing is removed by the next writer.
        let dead = dir + "/x.projection.tmp-999999999-1"
        _ = FileManager.default.createFile(atPath: dead, contents: Data([9]))
        let live = dir + "/x.projection.tmp-\(getpid())-2"
        _ = FileManager.default.createFile(atPath: live, contents: Data([9]))
        try DurableFile.replace(path: path, with: [5])
        #expect(!FileManager.default.fileExists(atPath: dead) && FileManager.default.fileExists(atPath: live))
    }
}
