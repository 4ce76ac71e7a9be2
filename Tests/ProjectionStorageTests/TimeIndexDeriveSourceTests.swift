import Foundation
import Testing
import TestKit
import LedgerFixture
import SubscriptionDomain
import Platform
@_spi(Testing) @testable import ProjectionStorage

extension TimeIndexDerivations {
    /// Of the indexes kept under other profiles of the app, the one whose change reaches the fewest
    /// kinds of events is derived from: once "billing grace 7 days" was asked (and its index kept),
    /// "billing grace 7 days and a 24 h trial reminder" is derived from it (a change of purchases
    /// alone), not from the shipped rules (billing issues and purchases).
    @Test func theKeptIndexWhoseChangeReachesTheFewestKindsOfEventsIsDerivedFrom() throws {
        let (log, _, _) = try Self.keptLog(seed: 29)
        let grace = Self.profile { $0.name = "grace7"; $0.billingGraceDays = 7 }
        var first = ProjectionStore(logDirectory: log.path, profile: grace)
        first.derivationShare = 1   // derived however many events the users it reaches hold
        #expect(try first.refreshedTimeIndex().refresh.derivation?.from == "handz")
        let both = Self.profile { $0.name = "grace7-reminder24"; $0.billingGraceDays = 7; $0.trialReminderLeadHours = 24 }
        var store = ProjectionStore(logDirectory: log.path, profile: both)
        store.derivationShare = 1
        let (index, refresh) = try store.refreshedTimeIndex()
        let derivation = try #require(refresh.derivation, "derived, not built")
        #expect(derivation.from == "grace7", "derived from \(derivation.from)")
        try Self.expectSameAsBuild(index, store, "grace 7 days and a 24 h reminder")
    }

    /// Another profile's index is at hand only when one it can be derived from is kept: the file
    /// at its own profile's name, of the fingerprint this code gives that profile. A file of other
    /// rules code under that name, or a copy under another name, is not one (nothing would be derived from it).
    @Test func anIndexIsAtHandOnlyWhenOneOfThisRulesCodeIsKeptUnderItsProfilesName() throws {
        let (log, kept, _) = try Self.keptLog(seed: 31)
        let grace = ProjectionStore(logDirectory: log.path, profile: Self.changes[0].1)
        #expect(grace.timeIndexAtHand, "derivable from the kept index")
        let bytes = try #require(try DurableFile.read(path: kept.timeIndexPath))
        try DurableFile.remove(path: kept.timeIndexPath)
        var other = kept
        other.rulesFingerprint = "other rules code"
        _ = try other.refreshedTimeIndex()
        try FileManager.default.moveItem(atPath: other.timeIndexPath, toPath: kept.timeIndexPath)
        #expect(!grace.timeIndexAtHand, "a file of other rules code under the kept name")
        try DurableFile.remove(path: kept.timeIndexPath)
        ReportSummaries.writeFile(log.path + "/projections/copy.timeindex", bytes)
        #expect(!grace.timeIndexAtHand, "a copy under another name")
        #expect(try grace.refreshedTimeIndex().refresh.rebuilt)
    }
}
