extension Profile {
    /// The five profiles that ship, one per seed document.
    public static let builtIn: [Profile] = [handz, mirrormate, tomo, howru, sportstime]

    /// The built-in profile with this name.
    public static func named(_ name: String) -> Profile? { builtIn.first { $0.name == name } }

    private static func sub(_ id: String, group: String, entitlement: String, tier: String, price: String, months: Int) -> Product {
        Product(id: id, kind: .autoRenewable, group: group, entitlement: entitlement, tier: tier, price: price, currency: "USD", periodMonths: months, credits: nil)
    }

    private static func base(name: String, app: String, products: [Product], tiers: [Tier], group: String,
                             trialDays: Int = 7, commission: Int = 15, familySharing: Bool = false,
                             trialEndingCopy: String = "Your trial ends soon. Keep practicing without interruptions.",
                             paymentFailedCopy: String = "Payment issue. Update your subscription to keep Pro features.") -> Profile {
        Profile(name: name, app: app, products: products, tiers: tiers, primaryGroup: group, trialDays: trialDays,
                billingGraceDays: 3, unverifiedGraceHours: 24, trialReminderLeadHours: 48, commissionPercent: commission,
                familySharing: familySharing, deepLinkScheme: name,
                trialEndingCopy: trialEndingCopy, paymentFailedCopy: paymentFailedCopy)
    }

    /// Handz (seed 004): Pro at $9.99/month, 7-day trial, 3 days billing grace, 24 h unverified grace.
    public static let handz = base(
        name: "handz", app: "Handz",
        products: [sub("handz.pro.monthly", group: "handz.pro", entitlement: "pro", tier: "pro", price: "9.99", months: 1)],
        tiers: [Tier(name: "free", limits: ["practice": .enabled(false), "uploads": .enabled(false)]),
                Tier(name: "pro", limits: ["practice": .enabled(true), "uploads": .enabled(true)])],
        group: "handz.pro")

    /// MirrorMate (seed 000): Premium at $9.99/month with a 7-day trial; free users get 1 analysis a day.
    public static let mirrormate = base(
        name: "mirrormate", app: "MirrorMate",
        products: [sub("com.mirrormate.premium.monthly", group: "MirrorMate Premium", entitlement: "premium", tier: "premium", price: "9.99", months: 1)],
        // Seed 000 §4 "Feature Comparison Table" (L641–L653); "15+ metrics" is at least 15.
        tiers: [Tier(name: "free", limits: ["analysesPerDay": .count(1), "basicMetrics": .count(5), "detailedMetrics": .count(0),
                                            "vocalAnalysis": .enabled(false), "bodyLanguageScores": .count(0), "practiceExercisesPerSession": .count(0),
                                            "progressTracking": .enabled(false), "compareVideos": .enabled(false), "pdfExport": .enabled(false),
                                            "prioritySupport": .enabled(false)]),
                Tier(name: "premium", limits: ["analysesPerDay": .unlimited, "basicMetrics": .count(5), "detailedMetrics": .count(15),
                                               "vocalAnalysis": .enabled(true), "bodyLanguageScores": .count(5), "practiceExercisesPerSession": .count(3),
                                               "progressTracking": .enabled(true), "compareVideos": .enabled(true), "pdfExport": .enabled(true),
                                               "prioritySupport": .enabled(true)])],
        group: "MirrorMate Premium", commission: 30,
        trialEndingCopy: "Your free trial ends soon. Keep unlimited analyses and detailed insights with Premium.",
        paymentFailedCopy: "Payment issue. Update your payment method to keep MirrorMate Premium.")

    /// TOMO (seed 001): Pro at $9.99/month or $79.99/year, 7-day trial; free keeps 30 days of history.
    public static let tomo = base(
        name: "tomo", app: "TOMO",
        products: [sub("tomo.pro.monthly", group: "tomo.pro", entitlement: "pro", tier: "pro", price: "9.99", months: 1),
                   sub("tomo.pro.yearly", group: "tomo.pro", entitlement: "pro", tier: "pro", price: "79.99", months: 12)],
        // Seed 001 §2 "Subscription Tiers" (L27–L46): free stats are a weekly summary, the library browse only.
        tiers: [Tier(name: "free", limits: ["sessionLogging": .unlimited, "historyDays": .count(30), "fullAnalytics": .enabled(false),
                                            "techniqueNotes": .enabled(false), "aiInsights": .enabled(false), "coachShare": .enabled(false),
                                            "prioritySupport": .enabled(false)]),
                Tier(name: "pro", limits: ["sessionLogging": .unlimited, "historyDays": .unlimited, "fullAnalytics": .enabled(true),
                                           "techniqueNotes": .enabled(true), "aiInsights": .enabled(true), "coachShare": .enabled(true),
                                           "prioritySupport": .enabled(true)])],
        group: "tomo.pro",
        trialEndingCopy: "Your Pro trial ends soon. Keep training smarter with full access.",
        paymentFailedCopy: "Payment issue. Update your payment method to keep TOMO Pro.")

    /// HowRU (seed 002): Premium and Family tiers, monthly and yearly, 7-day Premium trial, SMS credit packs;
    /// Apple takes 30 % (seed 002 §8 L418).
    public static let howru = base(
        name: "howru", app: "HowRU",
        products: [
            sub("howru_premium_monthly", group: "howru", entitlement: "premium", tier: "premium", price: "4.99", months: 1),
            sub("howru_premium_yearly", group: "howru", entitlement: "premium", tier: "premium", price: "39.99", months: 12),
            sub("howru_family_monthly", group: "howru", entitlement: "family", tier: "family", price: "9.99", months: 1),
            sub("howru_family_yearly", group: "howru", entitlement: "family", tier: "family", price: "79.99", months: 12),
            Product(id: "howru_sms_20", kind: .consumable, price: "2.99", currency: "USD", credits: 20),
            Product(id: "howru_sms_50", kind: .consumable, price: "4.99", currency: "USD", credits: 50),
            Product(id: "howru_sms_100", kind: .consumable, price: "7.99", currency: "USD", credits: 100),
        ],
        // Seed 002 §1 "Pricing Tiers" (L11–L47): selfie snapshots expire after 24 h; Family has all of Premium.
        tiers: [Tier(name: "free", limits: ["checkIns": .unlimited, "supporters": .count(2), "checkers": .count(1), "historyDays": .count(7),
                                            "smsAlerts": .enabled(false), "selfieSnapshots": .enabled(false), "dataExport": .enabled(false),
                                            "prioritySupport": .enabled(false), "sharedDashboard": .enabled(false), "familyAdminControls": .enabled(false)]),
                Tier(name: "premium", limits: ["checkIns": .unlimited, "supporters": .count(10), "checkers": .count(1), "historyDays": .count(365),
                                               "smsAlerts": .enabled(true), "selfieSnapshots": .enabled(true), "selfieSnapshotHours": .count(24),
                                               "dataExport": .enabled(true), "prioritySupport": .enabled(true), "sharedDashboard": .enabled(false),
                                               "familyAdminControls": .enabled(false)]),
                Tier(name: "family", limits: ["checkIns": .unlimited, "supporters": .unlimited, "checkers": .count(5), "historyDays": .count(365),
                                              "smsAlerts": .enabled(true), "selfieSnapshots": .enabled(true), "selfieSnapshotHours": .count(24),
                                              "dataExport": .enabled(true), "prioritySupport": .enabled(true), "sharedDashboard": .enabled(true),
                                              "familyAdminControls": .enabled(true)])],
        group: "howru", commission: 30,
        trialEndingCopy: "Your Premium trial ends soon. Keep SMS alerts and up to 10 supporters.",
        paymentFailedCopy: "Payment issue. Update your payment method to keep HowRU Premium.")

    /// SportsTime (seed 003): Pro at $4.99/month or $49.99/year, Family Sharing on, no trial; free saves 1 trip.
    public static let sportstime = base(
        name: "sportstime", app: "SportsTime",
        products: [sub("com.sportstime.pro.monthly", group: "Pro Access", entitlement: "pro", tier: "pro", price: "4.99", months: 1),
                   sub("com.sportstime.pro.annual", group: "Pro Access", entitlement: "pro", tier: "pro", price: "49.99", months: 12)],
        // Seed 003 "Free Tier" / "Pro Tier".
        tiers: [Tier(name: "free", limits: ["tripPlanning": .enabled(true), "savedTrips": .count(1), "pdfExport": .enabled(false), "progressTracking": .enabled(false)]),
                Tier(name: "pro", limits: ["tripPlanning": .enabled(true), "savedTrips": .unlimited, "pdfExport": .enabled(true), "progressTracking": .enabled(true)])],
        group: "Pro Access", trialDays: 0, familySharing: true,
        trialEndingCopy: "Your Pro trial ends soon. Keep unlimited saved trips and PDF itineraries.",
        paymentFailedCopy: "Payment issue. Update your payment method to keep SportsTime Pro.")
}
