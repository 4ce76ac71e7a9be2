import Testing
@testable import SubscriptionDomain

/// Each built-in profile's tiers say exactly what its seed's tier table says,
/// limit by limit; docs/rules.md#tiers names the seed line of each.
@Suite struct SeedTiers {
    static func limits(_ profile: Profile, _ tier: String) -> [String: FeatureLimit] { profile.tier(tier)?.limits ?? [:] }

    /// Seed 000 §4 "Feature Comparison Table" (L641–L653): free users get 5 basic metrics and no
    /// detailed insights; Premium adds 15+ detailed metrics, vocal analysis, 5 body-language
    /// scores, 3 exercises a session, progress tracking, comparison, PDF export, priority support.
    @Test func MirrorMate_L641_L653_tiersSayWhatTheFeatureComparisonSays() {
        #expect(Profile.mirrormate.tiers.map(\.name) == ["free", "premium"])
        #expect(Self.limits(.mirrormate, "free") == [
            "analysesPerDay": .count(1), "basicMetrics": .count(5), "detailedMetrics": .count(0), "vocalAnalysis": .enabled(false),
            "bodyLanguageScores": .count(0), "practiceExercisesPerSession": .count(0), "progressTracking": .enabled(false),
            "compareVideos": .enabled(false), "pdfExport": .enabled(false), "prioritySupport": .enabled(false),
        ])
        #expect(Self.limits(.mirrormate, "premium") == [
            "analysesPerDay": .unlimited, "basicMetrics": .count(5), "detailedMetrics": .count(15), "vocalAnalysis": .enabled(true),
            "bodyLanguageScores": .count(5), "practiceExercisesPerSession": .count(3), "progressTracking": .enabled(true),
            "compareVideos": .enabled(true), "pdfExport": .enabled(true), "prioritySupport": .enabled(true),
        ])
    }

    /// Seed 001 §2 "Subscription Tiers" (L27–L46).
    @Test func TOMO_L27_L46_tiersSayWhatTheTierTablesSay() {
        #expect(Profile.tomo.tiers.map(\.name) == ["free", "pro"])
        #expect(Self.limits(.tomo, "free") == [
            "sessionLogging": .unlimited, "historyDays": .count(30), "fullAnalytics": .enabled(false),
            "techniqueNotes": .enabled(false), "aiInsights": .enabled(false), "coachShare": .enabled(false), "prioritySupport": .enabled(false),
        ])
        #expect(Self.limits(.tomo, "pro") == [
            "sessionLogging": .unlimited, "historyDays": .unlimited, "fullAnalytics": .enabled(true),
            "techniqueNotes": .enabled(true), "aiInsights": .enabled(true), "coachShare": .enabled(true), "prioritySupport": .enabled(true),
        ])
    }

    /// Seed 002 §1 "Pricing Tiers" (L11–L47): the selfie-snapshot flag (L19, L30) was missing.
    @Test func HowRU_L11_L47_tiersSayWhatTheTierTablesSayIncludingSelfieSnapshots() {
        #expect(Profile.howru.tiers.map(\.name) == ["free", "premium", "family"])
        #expect(Self.limits(.howru, "free") == [
            "checkIns": .unlimited, "supporters": .count(2), "checkers": .count(1), "historyDays": .count(7), "smsAlerts": .enabled(false),
            "selfieSnapshots": .enabled(false), "dataExport": .enabled(false), "prioritySupport": .enabled(false),
            "sharedDashboard": .enabled(false), "familyAdminControls": .enabled(false),
        ])
        #expect(Self.limits(.howru, "premium") == [
            "checkIns": .unlimited, "supporters": .count(10), "checkers": .count(1), "historyDays": .count(365), "smsAlerts": .enabled(true),
            "selfieSnapshots": .enabled(true), "selfieSnapshotHours": .count(24), "dataExport": .enabled(true), "prioritySupport": .enabled(true),
            "sharedDashboard": .enabled(false), "familyAdminControls": .enabled(false),
        ])
        #expect(Self.limits(.howru, "family") == [
            "checkIns": .unlimited, "supporters": .unlimited, "checkers": .count(5), "historyDays": .count(365), "smsAlerts": .enabled(true),
            "selfieSnapshots": .enabled(true), "selfieSnapshotHours": .count(24), "dataExport": .enabled(true), "prioritySupport": .enabled(true),
            "sharedDashboard": .enabled(true), "familyAdminControls": .enabled(true),
        ])
    }

    /// Seed 003 "Free Tier" / "Pro Tier": basic trip planning and 1 saved trip; Pro: unlimited
    /// saved trips, PDF itinerary export, progress tracking.
    @Test func SportsTime_FreeAndProTier_tiersSayWhatTheSeedSays() {
        #expect(Self.limits(.sportstime, "free") == [
            "tripPlanning": .enabled(true), "savedTrips": .count(1), "pdfExport": .enabled(false), "progressTracking": .enabled(false),
        ])
        #expect(Self.limits(.sportstime, "pro") == [
            "tripPlanning": .enabled(true), "savedTrips": .unlimited, "pdfExport": .enabled(true), "progressTracking": .enabled(true),
        ])
    }

    /// Seed 004 CH08 L463 (during a trial all Pro gates are removed: Practice, uploads) and L519.
    @Test func Handz_CH08_L463_proGatesArePracticeAndUploads() {
        #expect(Self.limits(.handz, "free") == ["practice": .enabled(false), "uploads": .enabled(false)])
        #expect(Self.limits(.handz, "pro") == ["practice": .enabled(true), "uploads": .enabled(true)])
    }
}
