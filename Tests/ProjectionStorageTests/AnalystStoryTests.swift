import Testing
import LedgerFixture
import SubscriptionDomain
@testable import Projections

/// Each metric on a story worked by hand, one per seed app's profile: the figures below are
/// counted from the events, not taken from a run.
@Suite struct AnalystStories {
    static func t(_ s: String) -> Timestamp { Timestamp.parse(s)! }
    static let day: Int64 = 86_400_000_000_000

    static func ev(_ id: String, _ type: String, _ user: String, _ time: String, _ data: String = "{}") -> String {
        #"{"id":"\#(id)","type":"\#(type)","user":"\#(user)","time":"\#(time)","data":\#(data)}"#
    }

    static func model(_ lines: [String], _ profile: Profile) throws -> (TestLog, AnalystModel) {
        let log = try TestLog(lines, profile: profile)
        return (log, try AnalystModel.build(directory: log.path, profile: profile, partitions: 1).model)
    }

    static func window(_ m: AnalystModel, _ from: String, _ to: String, segment: Segment? = nil, lifetime: Int64 = 30 * day) -> AnalystBreakdown {
        m.metrics(bounds: [t(from).nanoseconds, t(to).nanoseconds], asOf: t(to).nanoseconds, within: 7 * day, lifetime: lifetime, segment: segment)[0]
    }

    static func money(_ s: String) -> Money { Money.parse(s)! }

    /// Handz: a trial that converts then is cancelled, a purchase refunded at once, a trial
    /// abandoned, a visitor who never buys.
    static let handz = [
        ev("a1", "account_created", "u1", "2026-01-01T00:00:00Z"),
        ev("a2", "purchase", "u1", "2026-01-01T10:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1","expires":"2026-01-08T10:00:00Z","offer":"free_trial","store":"app_store","country":"US"}"#),
        ev("a3", "renewal", "u1", "2026-01-08T10:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t1r","expires":"2026-02-08T10:00:00Z","price":"9.99","currency":"USD"}"#),
        ev("a4", "cancellation", "u1", "2026-01-20T00:00:00Z"),
        ev("b1", "paywall_viewed", "u2", "2026-01-02T00:00:00Z", #"{"context":"onboarding"}"#),
        ev("b2", "purchase", "u2", "2026-01-03T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t2","expires":"2026-02-03T00:00:00Z","price":"9.99","currency":"USD","store":"play_store","country":"DE"}"#),
        ev("b3", "refund", "u2", "2026-01-05T00:00:00Z", #"{"transaction":"t2"}"#),
        ev("c1", "purchase", "u3", "2026-01-04T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"t3","expires":"2026-01-11T00:00:00Z","offer":"free_trial"}"#),
        ev("c2", "cancellation", "u3", "2026-01-05T00:00:00Z"),
        ev("d1", "paywall_viewed", "u4", "2026-01-06T00:00:00Z", #"{"context":"settings"}"#),
    ]

    @Test func handzEveryMetricOfAConvertedARefundedAnAbandonedAndAVisitor() throws {
        let (_, m) = try Self.model(Self.handz, .handz)
        let r = Self.window(m, "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z").total
        // u2 new on 01-03 and churned by the refund on 01-05; u1 new at its conversion on 01-08, churned at expiry on 02-08.
        #expect((r.newSubscriptions, r.resubscribed, r.churned, r.active) == (2, 0, 2, 0))
        let usd = try #require(r.mrr["USD"])
        #expect(usd.new == Self.money("19.98") && usd.churned == Self.money("19.98") && usd.mrr == .zero && usd.net == .zero)
        // Two paid transactions (u1's renewal, u2's purchase), one refunded.
        #expect((r.paidTransactions, r.refundedTransactions) == (2, 1))
        #expect(r.refundRate == 0.5)
        // u1 converted, u3 cancelled and its trial ended on 01-11 without a renewal.
        #expect((r.trialsStarted, r.trialsConverted, r.trialsPending, r.trialsAbandoned) == (2, 1, 0, 1))
        // Four customers; u1, u2, u3 converted within 7 days; only u2 paid within 7 days (u1 paid 7 d 10 h after first seen).
        #expect((r.newCustomers, r.initialConversions, r.payingConversions) == (4, 3, 1))
        // Lifetime of 30 days: u1 9.99, u2 9.99 refunded: 9.99 over 4 customers, 2 of them paying.
        #expect(r.lifetimeRevenue["USD"] == Self.money("9.99") && r.lifetimePayingCustomers == 2)
        #expect(AnalystMetrics.perCustomer(r.lifetimeRevenue["USD"]!, r.newCustomers) == Self.money("2.4975"))
        #expect(AnalystMetrics.perCustomer(r.lifetimeRevenue["USD"]!, r.lifetimePayingCustomers) == Self.money("4.995"))
        // ARPU: 19.98 charged less 9.99 refunded over 4 active customers; ARPPU over 2 payers.
        #expect(r.revenue["USD"] == Self.money("9.99") && r.activeCustomers == 4 && r.payingCustomers == 2)

        // As of 01-06 (before u1 converted): only u2's start and churn; u1's trial still pending, u3's too.
        let early = Self.window(m, "2026-01-01T00:00:00Z", "2026-01-06T00:00:00Z").total
        #expect((early.newSubscriptions, early.churned, early.trialsPending, early.trialsConverted) == (1, 1, 2, 0))

        // By store: u1 bought in the App Store, u2 in the Play Store, u3 said nothing.
        let stores = Self.window(m, "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z", segment: .store).segments
        #expect(Set(stores.keys) == ["app_store", "play_store", "unknown", "none"])
        #expect(stores["app_store"]?.newSubscriptions == 1 && stores["app_store"]?.paidTransactions == 1 && stores["app_store"]?.refundedTransactions == 0)
        #expect(stores["play_store"]?.churned == 1 && stores["play_store"]?.refundedTransactions == 1)
        #expect(stores["unknown"]?.trialsAbandoned == 1 && stores["none"]?.newCustomers == 1)
        let countries = Self.window(m, "2026-01-01T00:00:00Z", "2026-03-01T00:00:00Z", segment: .country).segments
        #expect(countries["US"]?.trialsConverted == 1 && countries["DE"]?.paidTransactions == 1)

        // Customer lists.
        var trial = CustomerFilter()
        trial.planState = .trial
        #expect(m.customers(at: Self.t("2026-01-06T00:00:00Z"), where: trial).rows.map(\.user) == ["u1", "u3"])
        trial.autoRenew = false
        #expect(m.customers(at: Self.t("2026-01-06T00:00:00Z"), where: trial).rows.map(\.user) == ["u3"])
        var ending = CustomerFilter()
        ending.trialEndsBefore = Self.t("2026-01-09T00:00:00Z")
        #expect(m.customers(at: Self.t("2026-01-06T00:00:00Z"), where: ending).rows.map(\.user) == ["u1"])
        var churned = CustomerFilter()
        churned.churnedSince = Self.t("2026-02-01T00:00:00Z")
        let list = m.customers(at: Self.t("2026-03-01T00:00:00Z"), where: churned).rows
        #expect(list.map(\.user) == ["u1"] && list.first?.churnedAt == Self.t("2026-02-08T10:00:00Z"))
    }

    @Test func mirrorMateARenewalKeepsOneActiveSubscriptionAndABillingIssueEndsItAfterTheGrace() throws {
        let (_, m) = try Self.model([
            Self.ev("m1", "purchase", "m_a", "2026-01-01T00:00:00Z", #"{"product":"com.mirrormate.premium.monthly","transaction":"x1","expires":"2026-02-01T00:00:00Z","price":"9.99","currency":"USD"}"#),
            Self.ev("m2", "renewal", "m_a", "2026-02-01T00:00:00Z", #"{"product":"com.mirrormate.premium.monthly","transaction":"x2","expires":"2026-03-01T00:00:00Z","price":"9.99","currency":"USD"}"#),
            Self.ev("m3", "billing_issue", "m_a", "2026-03-01T00:00:00Z"),
        ], Profile.named("mirrormate")!)
        let feb = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-15T00:00:00Z").total
        #expect((feb.newSubscriptions, feb.churned, feb.active, feb.paidTransactions) == (1, 0, 1, 2))
        #expect(feb.mrr["USD"]?.mrr == Self.money("9.99") && feb.mrr["USD"]?.arr == Self.money("119.88"))
        // The billing grace (3 days) keeps it active; it churns when the grace ends on 03-04.
        var grace = CustomerFilter()
        grace.planState = .proGrace
        grace.billingIssue = true
        #expect(m.customers(at: Self.t("2026-03-02T00:00:00Z"), where: grace).rows.map(\.user) == ["m_a"])
        let march = Self.window(m, "2026-03-01T00:00:00Z", "2026-04-01T00:00:00Z").total
        #expect((march.churned, march.active) == (1, 0) && march.mrr["USD"]?.churned == Self.money("9.99"))
    }

    @Test func tomoAnUpgradeToTheYearlyPlanIsAContractionOfMonthlyRecurringRevenue() throws {
        let (_, m) = try Self.model([
            Self.ev("t1", "purchase", "t_a", "2026-01-01T00:00:00Z", #"{"product":"tomo.pro.monthly","transaction":"y1","expires":"2026-02-01T00:00:00Z","price":"9.99","currency":"USD"}"#),
            Self.ev("t2", "product_change", "t_a", "2026-01-15T00:00:00Z", #"{"product":"tomo.pro.yearly","effective":"immediate","transaction":"y2","price":"79.99","currency":"USD","expires":"2027-01-15T00:00:00Z"}"#),
        ], Profile.named("tomo")!)
        let r = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z").total
        // 9.99 a month became 79.99 a year: 6.665833 a month (rounded to the micro), a contraction of 3.324167.
        #expect(r.mrr["USD"]?.new == Self.money("9.99") && r.mrr["USD"]?.contraction == Self.money("3.324167"))
        #expect(r.mrr["USD"]?.mrr == Self.money("6.665833") && r.active == 1 && r.paidTransactions == 2)
        // By product, the subscription moved to the yearly product with its MRR: the monthly one holds none.
        let byProduct = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", segment: .product).segments
        #expect(byProduct["tomo.pro.monthly"]?.active == 0 && byProduct["tomo.pro.yearly"]?.active == 1)
        #expect(byProduct["tomo.pro.yearly"]?.mrr["USD"]?.mrr == Self.money("6.665833"))
    }

    @Test func howRUAFamilyUpgradeIsAnExpansionAndACreditPackIsAPaidTransactionWithoutMRR() throws {
        let (_, m) = try Self.model([
            Self.ev("h1", "purchase", "h_a", "2026-01-01T00:00:00Z", #"{"product":"howru_premium_monthly","transaction":"z1","expires":"2026-02-01T00:00:00Z","price":"4.99","currency":"USD"}"#),
            Self.ev("h2", "product_change", "h_a", "2026-01-10T00:00:00Z", #"{"product":"howru_family_monthly","effective":"immediate","transaction":"z2","price":"9.99","currency":"USD","expires":"2026-02-10T00:00:00Z"}"#),
            Self.ev("h3", "consumable_purchase", "h_b", "2026-01-12T00:00:00Z", #"{"product":"howru_sms_20","transaction":"z3","quantity":20,"price":"2.99","currency":"USD"}"#),
        ], Profile.named("howru")!)
        let r = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z").total
        #expect(r.mrr["USD"]?.expansion == Self.money("5.00") && r.mrr["USD"]?.mrr == Self.money("9.99"))
        #expect((r.paidTransactions, r.payingCustomers, r.active) == (3, 2, 1))
        #expect(r.revenue["USD"] == Self.money("17.97"))
        let tiers = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", segment: .tier).segments
        #expect(tiers["family"]?.active == 1 && tiers["premium"]?.active == 0 && tiers["premium"]?.newSubscriptions == 1)
        var family = CustomerFilter()
        family.tier = "family"
        #expect(m.customers(at: Self.t("2026-01-20T00:00:00Z"), where: family).rows.map(\.user) == ["h_a"])
    }

    @Test func sportsTimeAFamilyMembersAccessIsNeitherASubscriptionNorAPayingCustomer() throws {
        let (_, m) = try Self.model([
            Self.ev("s1", "purchase", "s_org", "2026-01-01T00:00:00Z", #"{"product":"com.sportstime.pro.annual","transaction":"w1","expires":"2027-01-01T00:00:00Z","price":"49.99","currency":"USD"}"#),
            Self.ev("s2", "purchase", "s_kid", "2026-01-02T00:00:00Z", #"{"product":"com.sportstime.pro.annual","transaction":"w2","expires":"2027-01-01T00:00:00Z","familyShared":true}"#),
        ], Profile.named("sportstime")!)
        let r = Self.window(m, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z").total
        // 49.99 a year is 4.165833 a month; the member adds no subscription, no MRR, no payment.
        #expect((r.newSubscriptions, r.active, r.paidTransactions, r.payingCustomers, r.newCustomers) == (1, 1, 1, 1, 2))
        #expect(r.mrr["USD"]?.mrr == Self.money("4.165833") && r.mrr["USD"]?.arr == Self.money("49.989996"))
        #expect(r.initialConversions == 1)
        var pro = CustomerFilter()
        pro.planState = .pro
        #expect(m.customers(at: Self.t("2026-01-10T00:00:00Z"), where: pro).rows.map(\.user) == ["s_kid", "s_org"])
    }
}
