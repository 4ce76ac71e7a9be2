import Testing
import SubscriptionDomain
@_spi(Testing) @testable import Projections
@_spi(Testing) @testable import ProjectionStorage

/// The keys no build makes any longer (the instant funnel's `reached` and `context`, and
/// `trialStarted`) are refused at reading like a forged file's; a `retentionDue` key is valid
/// only for a paid day after its window day and 1 to 31 billing months.
extension TimeIndexes {
    @Test func keysNoLongerKeptAndRetentionDueKeysOutsideTheirRangeAreNotValid() {
        for kind in [TimeKey.Kind.reached, .context, .trialStarted] {
            for (number, name) in [(Int64(0), ""), (1, ""), (2, "onboarding")] {
                #expect(!TimeKey(kind: kind, number: number, name: name).isValid, "\(kind) \(number) \(name) is no longer kept")
            }
        }
        let day: Int64 = 20_484
        for months in [1, 3, 12, 31] {
            #expect(TimeKey(kind: .retentionDue, number: TimeKey.pack(TimeKey.beforeAnyDay, day, months)).isValid, "\(months) months")
            #expect(TimeKey(kind: .retentionDue, number: TimeKey.pack(day - 1, day, months)).isValid, "\(months) months after an earlier day")
            #expect(!TimeKey(kind: .retentionDue, number: TimeKey.pack(day, day, months)).isValid, "\(months) months under its own day")
            #expect(!TimeKey(kind: .retentionDue, number: TimeKey.pack(TimeKey.beforeAnyDay, day, months), name: "USD").isValid, "\(months) months, named")
        }
        #expect(!TimeKey(kind: .retentionDue, number: TimeKey.pack(TimeKey.beforeAnyDay, day, 0)).isValid, "no billing months")
    }
}
