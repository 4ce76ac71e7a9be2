import Foundation
import Testing
import LedgerFixture
import EventStore
import SubscriptionDomain
@testable import Projections

/// Series: the money of each bucket to the micro, the weekly trial cohorts, and the
/// retention rules of docs/rules.md#series (unverified grace waited for, billing grace not kept,
/// cohorts only of first paid periods in the window).
extension Series {
    static func paid(_ id: String, _ user: String, _ time: String, _ txn: String, expires: String, type: String = "purchase", takehome: String? = nil) -> String {
        line(id, type, user, time, #"{"product":"handz.pro.monthly","transaction":"\#(txn)","expires":"\#(expires)","price":"9.99","currency":"USD"\#(takehome.map { #","takehomePercentage":\#($0)"# } ?? "")}"#)
    }

    @Test func eachBucketsNetIsWhatWasKeptLessCommissionAndTakeHomeAdjustmentsOfItsOwnSales() throws {
        // handz takes 15 % commission; a sale whose store reports takehomePercentage 0.7 nets 70 % of its price.
        let log = try TestLog([
            Self.paid("1", "a", "2026-01-05T10:00:00Z", "a1", expires: "2026-02-05T10:00:00Z", takehome: "0.7"),
            Self.paid("2", "a", "2026-02-05T10:00:00Z", "a2", expires: "2026-03-05T10:00:00Z", type: "renewal", takehome: "0.7"),
            Self.paid("3", "b", "2026-02-07T10:00:00Z", "b1", expires: "2026-03-07T10:00:00Z", takehome: "0.7"),
            Self.paid("4", "c", "2026-02-09T10:00:00Z", "c1", expires: "2026-03-09T10:00:00Z"),
            Self.paid("5", "d", "2026-02-10T10:00:00Z", "d1", expires: "2026-03-10T10:00:00Z"),
            line("6", "refund", "c", "2026-02-20T10:00:00Z", #"{"transaction":"c1"}"#),
        ])
        func usd(_ s: String) -> Money { Money.parse(s)! }
        let months = try Self.totals(log, to: "2026-03-01T00:00:00Z").series(by: .month)!.rows
        let lines = months.map { $0.revenue.lines.first { $0.currency == "USD" } }
        // January: one reduced-commission sale, 70 % of 9.99.
        #expect(lines[0]?.gross == usd("9.99") && lines[0]?.net == usd("6.993"))
        // February (four days of sales summed): two reduced-commission sales at 70 %, one at 85 %,
        // one refunded at full commission (kept nothing, nets nothing).
        #expect(lines[1]?.gross == usd("39.96") && lines[1]?.refunded == usd("9.99"))
        #expect(lines[1]?.net == usd("6.993") + usd("6.993") + usd("8.4915"))
        // Buckets of any width add up to the plain report's net (no rounding here: whole micros).
        let plain = try log.replay(at: "2026-03-01T00:00:00Z").revenue().lines.first { $0.currency == "USD" }!
        for by in SeriesGranularity.allCases {
            let rows = try Self.totals(log, to: "2026-03-01T00:00:00Z").series(by: by)!.rows
            #expect(rows.reduce(Money.zero) { $0 + ($1.revenue.lines.first { $0.currency == "USD" }?.net ?? .zero) } == plain.net, "\(by)")
        }
    }

    @Test func aChangeAtExactlyABucketsEndIsInThatBucketsStocks() throws {
        // Everything happens at midnight: a bucket's stocks are as of its end, which takes the events at that instant.
        let log = try TestLog([
            Self.paid("1", "a", "2026-01-12T00:00:00Z", "a1", expires: "2026-02-02T00:00:00Z"),
            line("2", "purchase", "b", "2026-01-19T00:00:00Z", #"{"product":"handz.pro.monthly","transaction":"b1","expires":"2026-01-26T00:00:00Z","offer":"free_trial"}"#),
            line("3", "billing_issue", "a", "2026-02-02T00:00:00Z"),
            line("4", "expiration", "a", "2026-02-09T00:00:00Z"),
        ])
        for by in SeriesGranularity.allCases {
            let rows = try Self.totals(log, to: "2026-02-16T00:00:00Z").series(by: by)!.rows
            for b in rows {
                let plain = try log.replay(at: b.end.description).revenue()
                let at = "\(by) ending \(b.end)"
                #expect(b.revenue.activeSubscriptions == plain.activeSubscriptions && b.revenue.activeTrials == plain.activeTrials, "\(at)")
                #expect(b.revenue.churnedSubscribers == plain.churnedSubscribers, "\(at)")
                #expect(b.revenue.lines.first?.mrr ?? .zero == plain.lines.first?.mrr ?? .zero, "\(at)")
            }
            if by == .week { #expect(rows.map(\.revenue.activeSubscriptions).contains(1) && rows.map(\.revenue.activeTrials).contains(1)) }
        }
    }

    @Test func weeklyTrialCohortsOfTheBucketsAddUpToThePlainFunnelsCohorts() throws {
        for (log, profile) in try Self.sampleLogs() {
            let plain = try log.replay(at: "2026-02-20T00:00:00Z", profile: profile, from: "1970-01-01T00:00:00Z", to: "2026-02-20T00:00:00Z").funnel().cohorts
            #expect(!plain.isEmpty || profile.name != "handz")
            let want = Dictionary(uniqueKeysWithValues: plain.map { ($0.week, [$0.started, $0.converted]) })
            let totals = try Self.totals(log, profile, to: "2026-02-20T00:00:00Z")
            for by in SeriesGranularity.allCases {
                var got: [String: [Int]] = [:]
                for row in totals.series(by: by)!.rows {
                    for c in row.funnel.cohorts {
                        got[c.week, default: [0, 0]][0] += c.started
                        got[c.week, default: [0, 0]][1] += c.converted
                    }
                    // The bucket's trial conversion rate is its own cohort's: converted of the trials started in it.
                    let f = row.funnel
                    #expect(row.revenue.trialsStarted == f.trialsStarted && row.revenue.trialsConverted == f.trialsConverted)
                    #expect(row.revenue.trialConversionRate == (f.trialsStarted == 0 ? 0 : Double(f.trialsConverted) / Double(f.trialsStarted)), "\(profile.name) \(row.start)")
                    // A week bucket holds its own week's cohort only.
                    if by == .week { #expect(row.funnel.cohorts.count <= 1 && row.funnel.cohorts.allSatisfy { $0.started >= $0.converted }) }
                }
                #expect(got == want, "\(profile.name) by \(by)")
            }
        }
    }

    @Test func aTrialStartedOnASundayIsInTheCohortOfItsWeeksMonday() throws {
        // 2026-01-11 is a Sunday: its trial belongs to the week of Monday 2026-01-05, in the series as in the plain funnel.
        let log = try TestLog([
            line("1", "purchase", "sun", "2026-01-11T23:30:00Z", #"{"product":"handz.pro.monthly","transaction":"s1","expires":"2026-01-18T23:30:00Z","offer":"free_trial"}"#),
            line("2", "purchase", "mon", "2026-01-12T00:30:00Z", #"{"product":"handz.pro.monthly","transaction":"m1","expires":"2026-01-19T00:30:00Z","offer":"free_trial"}"#),
        ])
        let plain = try log.replay(at: "2026-02-01T00:00:00Z").funnel().cohorts
        #expect(plain == [.init(week: "2026-01-05", started: 1, converted: 0), .init(week: "2026-01-12", started: 1, converted: 0)])
        for by in SeriesGranularity.allCases {
            let cohorts = try Self.totals(log, to: "2026-02-01T00:00:00Z").series(by: by)!.rows.flatMap(\.funnel.cohorts)
            #expect(cohorts == plain, "\(by)")
        }
    }

    @Test func retentionWaitsForTheUnverifiedGraceAndDoesNotKeepABillingGrace() throws {
        let log = try TestLog([
            // late: the store's renewal arrives six hours after the period ended (within the 24 h unverified grace): kept.
            Self.paid("1", "late", "2026-01-10T00:00:00Z", "l1", expires: "2026-02-10T00:00:00Z"),
            Self.paid("2", "late", "2026-02-10T06:00:00Z", "l2", expires: "2026-03-10T00:00:00Z", type: "renewal"),
            // failing: billing issue at the period's end, in billing grace at the check: not kept.
            Self.paid("3", "failing", "2026-01-12T00:00:00Z", "f1", expires: "2026-02-12T00:00:00Z"),
            line("4", "billing_issue", "failing", "2026-02-12T00:00:00Z"),
        ])
        let january = try Self.totals(log, to: "2026-02-20T00:00:00Z").series(by: .month)!.rows[0].retention
        #expect(january.subscribers == 2)
        #expect(january.periods == [LedgerSeries.Period(period: 1, measured: 2, retained: 1, rate: 0.5)])
    }

    @Test func retentionCohortsHoldOnlyFirstPaidPeriodsInsideTheWindow() throws {
        let log = try TestLog([
            // Subscribed before the window, and renewing inside it: in no cohort of the series.
            Self.paid("1", "before", "2026-01-10T00:00:00Z", "b1", expires: "2026-02-10T00:00:00Z"),
            Self.paid("2", "before", "2026-02-10T00:00:00Z", "b2", expires: "2026-03-10T00:00:00Z", type: "renewal"),
            Self.paid("3", "before", "2026-03-10T00:00:00Z", "b3", expires: "2026-04-10T00:00:00Z", type: "renewal"),
            Self.paid("4", "inside", "2026-02-15T00:00:00Z", "i1", expires: "2026-03-15T00:00:00Z"),
        ])
        let rows = try Self.totals(log, to: "2026-04-01T00:00:00Z", from: "2026-02-01T00:00:00Z").series(by: .month)!.rows
        #expect(rows.map(\.retention.subscribers) == [1, 0])
        #expect(rows[0].retention.periods == [LedgerSeries.Period(period: 1, measured: 1, retained: 0, rate: 0)])
    }
}
