import Testing
import Reports
import SubscriptionDomain

/// The report's numbers as people read them: thousands separators every three digits,
/// money to the cent rounded half away from zero with its sign, rates with one decimal.
@Suite struct HumanNumbers {
    @Test func integersGroupThousandsByThree() {
        #expect(HumanFormat.integer(0) == "0")
        #expect(HumanFormat.integer(999) == "999")
        #expect(HumanFormat.integer(1_000) == "1,000")
        #expect(HumanFormat.integer(1_234_567) == "1,234,567")
        #expect(HumanFormat.integer(-12_345) == "-12,345")
    }

    @Test func moneyRoundsToTheCentHalfAwayFromZeroAndKeepsItsSign() {
        func m(_ s: String) -> Money { Money.parse(s)! }
        #expect(HumanFormat.money(m("4.999166"), "USD") == "$5.00")
        #expect(HumanFormat.money(m("0.005"), "EUR") == "€0.01")
        #expect(HumanFormat.money(m("0.004999"), "EUR") == "€0.00")
        #expect(HumanFormat.money(m("1234.5"), "GBP") == "£1,234.50")
        #expect(HumanFormat.money(m("-9.995"), "USD") == "-$10.00")
        #expect(HumanFormat.money(m("-0.004"), "USD") == "$0.00")
        #expect(HumanFormat.money(m("12"), "CHF") == "CHF 12.00")
    }

    @Test func ratesShowOneDecimalOfAPercent() {
        #expect(HumanFormat.percent(109.0 / 1010.0) == "10.8%")
        #expect(HumanFormat.percent(0) == "0.0%" && HumanFormat.percent(1) == "100.0%")
    }
}
