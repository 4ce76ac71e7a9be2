import Foundation
import Testing
@testable import Projections
@testable import ProjectionStorage

/// The profile name in a projection's file name is a label of plain ASCII: letters and digits of
/// other scripts (which file systems may store in another normalisation) become `_` as well.
@Suite struct ProjectionFileLabels {
    static func isPlain(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == 0x2E || byte == 0x5F || byte == 0x2D
    }

    @Test func aFileLabelHoldsOnlyASCIILettersDigitsDotUnderscoreAndHyphen() {
        for name in ["naïve name", "Ünïcödé", "日本語", "Ωmega", "ǅ", "e\u{301}", "ℌ", "ﬁle", "١٢٣", "handz"] {
            let label = ProjectionStore.fileLabel(name)
            #expect(label.utf8.allSatisfy(Self.isPlain), "\(name) -> \(label)")
            #expect(label.unicodeScalars.count == name.unicodeScalars.count, "one character per character: \(name) -> \(label)")
        }
        #expect(ProjectionStore.fileLabel("naïve name") == "na_ve_name")
        #expect(ProjectionStore.fileLabel("handz") == "handz")
    }
}
