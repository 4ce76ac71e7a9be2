import Testing
@testable import SubscriptionDomain

/// Notification copy per app: Handz keeps seed 004's words; every
/// other app has copy of its own, in its seed's voice, naming its paid tier.
@Suite struct SeedNotificationCopy {
    @Test func CH27_L149_L158_eachProfileHasNotificationCopyInItsOwnWords() {
        #expect(Profile.handz.trialEndingCopy == "Your trial ends soon. Keep practicing without interruptions.")
        #expect(Profile.handz.paymentFailedCopy == "Payment issue. Update your subscription to keep Pro features.")
        let others = Profile.builtIn.filter { $0.name != "handz" }
        #expect(Set(Profile.builtIn.map(\.trialEndingCopy)).count == Profile.builtIn.count)
        #expect(Set(Profile.builtIn.map(\.paymentFailedCopy)).count == Profile.builtIn.count)
        for p in others {
            #expect(!p.trialEndingCopy.contains("practicing"), "\(p.name)")
            #expect(p.paymentFailedCopy.contains(p.app), "\(p.name): \(p.paymentFailedCopy)")
        }
    }
}
