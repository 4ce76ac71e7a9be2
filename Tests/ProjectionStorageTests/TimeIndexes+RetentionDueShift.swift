import Foundation
import Testing
import TestKit
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// A paid start is kept by its due instant only when each of its checks is exactly that instant
/// shifted by whole months from the paid day's midnight (`TimeKey.retentionShift`). Before 1970
/// a start late in a month at a time past midnight is clamped from a different day than its paid
/// day's midnight (the month arithmetic rounds toward 1970), so its checks do not shift so: it
/// must be kept one by one (nil), never by a due instant that reads the wrong checks.
extension TimeIndexes {
    @Test func aStartIsKeptByItsDueInstantOnlyWhenEveryCheckIsThatInstantShiftedBeforeAndAfter1970Too() {
        let seed: UInt64 = 20_261_128
        var rng = SplitMix64(seed: seed)
        let grace = Timestamp.Duration.hours(24), day: Int64 = 86_400_000_000_000
        // Fixed: 30 January 1969 at noon (checks clamped from the 31st) and 31 January 2026 at 10:00.
        var starts: [(Timestamp, Int)] = [(Timestamp(nanoseconds: -336 * day + day / 2), 1),
                                          (Timestamp(nanoseconds: 20_484 * day + 10 * day / 24), 1)]
        for _ in 0..<2_000 {
            // Days 25 to 31 of a month from 1900 to 2100, at any time of the day.
            let year = Int.random(in: 1900...2100, using: &rng), month = Int.random(in: 1...12, using: &rng)
            let first = Timestamp.days(year: year, month: month, day: 1)
            let last = (month == 12 ? Timestamp.days(year: year + 1, month: 1, day: 1) : Timestamp.days(year: year, month: month + 1, day: 1)) - first
            let d = min(Int.random(in: 25...31, using: &rng), last)
            let t = Int64(Timestamp.days(year: year, month: month, day: d)) * day + Int64.random(in: 0..<day, using: &rng)
            starts.append((Timestamp(nanoseconds: t), [1, 3, 6, 12].randomElement(using: &rng)!))
        }
        var byDue = 0, oneByOne = 0
        for (start, months) in starts {
            let paidDay = SeriesBuckets.day(of: start)
            let checks = (1...LedgerSeries.retentionPeriods).map { Timestamp.addMonths($0 * months, to: start) + grace }
            guard let due = WindowSteps.dueInstant(start, day: paidDay, months: months, grace: grace, checks: checks) else { oneByOne += 1; continue }
            byDue += 1
            for (n, at) in zip(1..., checks) {
                let shifted = TimeKey.retentionShift(paidDay: paidDay, months: months, period: n).map { due.nanoseconds + $0 }
                #expect(shifted == at.nanoseconds, "seed \(seed): start \(start.nanoseconds) ns, \(months) months, period \(n): due \(due.nanoseconds) shifted to \(String(describing: shifted)), check at \(at.nanoseconds)")
            }
        }
        #expect(byDue > 0 && oneByOne > 0, "seed \(seed): \(byDue) starts by due instant, \(oneByOne) one by one")
    }

    @Test func theRetentionShiftOfTheFirstAndLastPaidDaysIsWhatTheMonthArithmeticGives() {
        // Days at and just within the limit of `TimeKey.dayLimit` (the first day of the timestamps'
        // range, from whose midnight months are added in range, and the last), and one past it.
        let limit = TimeKey.dayLimit, day: Int64 = 86_400_000_000_000
        for paidDay in [-limit - 1, -limit, -limit + 1, -limit + 40, limit - 400, limit - 1, limit, limit + 1] {
            for months in [1, 3, 12] {
                for period in 1...LedgerSeries.retentionPeriods {
                    var expected: Int64?
                    if abs(paidDay) <= limit {
                        let midnight = Timestamp(nanoseconds: paidDay * day)
                        let due = Timestamp.addMonths(period * months, to: midnight).nanoseconds
                        if due != .max, due != .min { expected = due - midnight.nanoseconds }
                    }
                    #expect(TimeKey.retentionShift(paidDay: paidDay, months: months, period: period) == expected,
                            "paid day \(paidDay), \(months) months, period \(period)")
                }
            }
        }
        #expect(TimeKey.retentionShift(paidDay: -limit, months: 1, period: 1) != nil)
    }
}
