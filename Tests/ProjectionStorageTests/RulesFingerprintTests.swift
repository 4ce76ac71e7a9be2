import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage
import Platform

/// Derived files are keyed by what the rules do, not by a number someone must remember to bump.
@Suite struct RulesIdentity {
    @Test func theCorpusReachesEveryEventTypeUnderEveryBuiltInProfile() {
        for profile in Profile.builtIn {
            let types = Set(RulesCorpus.events(profile).map(\.type))
            #expect(Set(EventType.allCases).subtracting(types).map(\.rawValue).sorted() == [], "\(profile.name)")
        }
    }

    /// The corpus alone (no profile JSON in this digest) sees each rule the profile sets: a change
    /// to any of them changes what the rules answer, so the fingerprint would catch the same
    /// change made in code.
    @Test func theCorpusSeesAChangeToEachRule() {
        let base = RulesFingerprint.compute(.handz)
        #expect(RulesFingerprint.compute(.handz) == base, "the digest is deterministic")
        var changes: [(String, Profile)] = []
        var p = Profile.handz
        p.billingGraceDays = 7; changes.append(("billing grace 3 → 7 days", p))
        p = .handz; p.trialDays = 14; changes.append(("trial 7 → 14 days", p))
        p = .handz; p.unverifiedGraceHours = 48; changes.append(("unverified grace 24 → 48 h", p))
        p = .handz; p.trialReminderLeadHours = 24; changes.append(("trial reminder 48 → 24 h before", p))
        p = .handz; p.commissionPercent = 30; changes.append(("commission 15 → 30 %", p))
        p = .handz; p.products[0].price = "12.99"; changes.append(("price", p))
        for (what, changed) in changes {
            #expect(RulesFingerprint.compute(changed) != base, "\(what) does not show on the corpus")
        }
    }

    @Test func aKeptProjectionMadeUnderOtherRulesIsRebuilt() throws {
        let log = try TestLog(Array(KeptProjections.lines.prefix(300)))
        let current = ProjectionStore(logDirectory: log.path, profile: .handz)
        #expect(try current.refresh().rebuilt)
        #expect(try current.refresh().rebuilt == false)
        // A build whose rules answer the corpus differently (one rule changed in code).
        var changed = current
        changed.rulesFingerprint = "0123456789abcdef"
        #expect(changed.path != current.path)
        #expect(try changed.refresh().rebuilt)
        #expect(try current.refresh().rebuilt == false, "each rule set keeps its own projection")
        #expect(current.fingerprint.count == 16 && RulesFingerprint.of(.handz) == RulesFingerprint.compute(.handz))
    }

    /// The event cache's enum codes are frozen: pinned here, unique, and never positions in `allCases`.
    @Test func theEventCacheCodesAreFrozen() {
        let pinned: [String: UInt8] = [
            "purchase": 0, "renewal": 1, "cancellation": 2, "uncancellation": 3, "billing_issue": 4, "expiration": 5,
            "refund": 6, "refund_reversed": 7, "product_change": 8, "revoke": 9, "transfer": 10, "consumable_purchase": 11,
            "credits_used": 12, "account_created": 13, "account_deleted": 14, "paywall_viewed": 15, "paywall_cta_tapped": 16,
            "purchase_started": 17, "purchase_pending": 18, "purchase_success": 19, "purchase_failed": 20, "restore_clicked": 21,
            "restore_success": 22, "restore_failed": 23, "notifications_disabled": 24, "notifications_enabled": 25,
            "pause": 26,
        ]
        for type in EventType.allCases {
            #expect(pinned[type.rawValue] == type.cacheCode, "\(type.rawValue): stored codes never change")
            #expect(EventCache.types[Int(type.cacheCode)] == type)
        }
        #expect(Set(EventType.allCases.map(\.cacheCode)).count == EventType.allCases.count)
        #expect(EventSource.allCases.map { "\($0.rawValue)=\($0.cacheCode)" } == ["store=0", "client=1", "server=2"])
        #expect(Offer.allCases.map { "\($0.rawValue)=\($0.cacheCode)" } == ["free_trial=0", "intro=1", "none=2"])
        #expect(StoreEnvironment.allCases.map { "\($0.rawValue)=\($0.cacheCode)" } == ["production=0", "sandbox=1"])
        #expect(ChangeTiming.allCases.map { "\($0.rawValue)=\($0.cacheCode)" } == ["immediate=0", "next_renewal=1"])
        // Data fields: their bit in an event's mask (bit 31 marks the unknown fields).
        #expect(EventField.allCases.map { "\($0.rawValue)=\($0.cacheCode)" } == [
            "product=0", "transaction=1", "originalTransaction=2", "expires=3", "offer=4", "price=5", "currency=6",
            "environment=7", "familyShared=8", "reason=9", "graceExpires=10", "resumesAt=11", "effective=12", "to=13",
            "quantity=14", "context=15", "sourceScreen=16", "planState=17", "trialEligible=18", "trialUsed=19", "plan=20",
            "errorCode=21", "category=22",
        ])
        #expect(EventField.allCases.allSatisfy { $0.cacheCode < 31 && EventCache.fieldsByCode[Int($0.cacheCode)] == $0 })
    }

    /// A cache whose events were written in another layout (another layout digest, CRC intact) is not read.
    @Test func anEventCacheOfAnotherLayoutIsNotRead() throws {
        let log = try TestLog(Array(KeptProjections.lines.prefix(200)))
        let handle = try EventLog(directory: log.path, access: .read)
        try EventCache.build(handle)
        #expect(EventCache.reader(log.path, head: handle.head) != nil)
        var bytes = try #require(try DurableFile.read(path: EventCache.path(log.path)))
        let digest = Array(EventCache.layoutDigest.utf8)
        let at = try #require((0..<64).first { Array(bytes[$0..<($0 + digest.count)]) == digest })
        for i in at..<(at + digest.count) { bytes[i] = UInt8(ascii: "0") }
        let body = Array(bytes.dropLast(4))
        bytes = body + withUnsafeBytes(of: CRC32C.checksum(body).littleEndian) { Array($0) }
        try DurableFile.replace(path: EventCache.path(log.path), with: bytes)
        #expect(EventCache.reader(log.path, head: handle.head) == nil)
    }
}
