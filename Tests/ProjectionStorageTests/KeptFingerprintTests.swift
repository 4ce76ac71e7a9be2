import Foundation
import Testing
import TestKit
import SubscriptionDomain
@testable import ProjectionStorage
import Platform

/// The rules fingerprint kept for later processes of the same build: found again by the same build
/// and profile only, used only when its line is whole, and written again when it is not.
@Suite struct KeptFingerprints {
    static let build: [UInt8] = [0x5A, 0x01, 0xC3]

    @Test func aKeptFingerprintIsReadBackByTheSameBuildAndProfileOnly() throws {
        let s = Scratch()
        let profile = Profile.handz.encodedJSON()
        let kept = try #require(KeptFingerprint(folder: s.path, profileJSON: profile, buildID: Self.build))
        #expect(kept.read() == nil)
        kept.write("0123456789abcdef")
        #expect(kept.read() == "0123456789abcdef")
        #expect(kept.path.hasPrefix(s.path + "/rules-5a01c3-"), "\(kept.path)")
        let otherBuild = try #require(KeptFingerprint(folder: s.path, profileJSON: profile, buildID: [0x5A, 0x01, 0xC4]))
        let otherProfile = try #require(KeptFingerprint(folder: s.path, profileJSON: Profile.tomo.encodedJSON(), buildID: Self.build))
        #expect(otherBuild.read() == nil && otherProfile.read() == nil)
        #expect(KeptFingerprint(folder: s.path, profileJSON: profile, buildID: nil) == nil, "a program without a build ID keeps nothing")
    }

    @Test func aLineCutOrChangedAnywhereIsNotUsed() throws {
        let s = Scratch()
        let kept = try #require(KeptFingerprint(folder: s.path, profileJSON: Profile.handz.encodedJSON(), buildID: Self.build))
        kept.write("0123456789abcdef")
        let whole = try #require(try DurableFile.read(path: kept.path))
        for length in 0..<whole.count {
            try DurableFile.replace(path: kept.path, with: Array(whole.prefix(length)))
            #expect(kept.read() == nil, "cut at \(length)")
        }
        for i in whole.indices {
            var changed = whole
            changed[i] ^= 0x01
            try DurableFile.replace(path: kept.path, with: changed)
            #expect(kept.read() == nil, "byte \(i) changed")
        }
    }

    @Test func theMemoReadsTheKeptValueAndComputesAndRewritesADamagedOne() throws {
        let s = Scratch()
        let kept = try #require(KeptFingerprint(folder: s.path, profileJSON: Profile.handz.encodedJSON()))
        // What is kept is what a later process of this build uses (a value the rules would not give shows it was read).
        kept.write("00000000000000aa")
        #expect(FingerprintMemo().value(for: .handz, keptIn: s.path) == "00000000000000aa")
        // Damaged: computed again, and kept again.
        try DurableFile.replace(path: kept.path, with: Array("LDGRFP1 00000000000000aa 00000000\n".utf8))
        let computed = RulesFingerprint.compute(.handz)
        #expect(FingerprintMemo().value(for: .handz, keptIn: s.path) == computed)
        #expect(kept.read() == computed)
    }

    @Test func aMissingFolderIsNotMadeToKeepIt() throws {
        let s = Scratch()
        let folder = s.path + "/projections"
        let kept = try #require(KeptFingerprint(folder: folder, profileJSON: Profile.handz.encodedJSON(), buildID: Self.build))
        kept.write("0123456789abcdef")
        #expect(kept.read() == nil)
        #expect(!PlatformDirectory.exists(folder))
    }
}
