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

/// Money for people rounds to its currency's ISO 4217 minor unit (JPY none, USD cents, KWD
/// thousandths); a code outside the table has two decimals.
@Suite struct MinorUnitRounding {
    func m(_ s: String) -> Money { Money.parse(s)! }

    @Test func eachCurrencyRoundsToItsOwnMinorUnitHalfAwayFromZero() {
        #expect(MinorUnits.rounded(m("849.15"), "JPY") == "849")
        #expect(MinorUnits.rounded(m("849.5"), "JPY") == "850")
        #expect(MinorUnits.rounded(m("-849.5"), "JPY") == "-850")
        #expect(MinorUnits.rounded(m("67.932"), "USD") == "67.93")
        #expect(MinorUnits.rounded(m("16.655833"), "EUR") == "16.66")
        #expect(MinorUnits.rounded(m("1.049325"), "KWD") == "1.049")
        #expect(MinorUnits.rounded(m("1.0495"), "KWD") == "1.050")
        #expect(MinorUnits.rounded(m("0.123456"), "CLF") == "0.1235")
        #expect(MinorUnits.rounded(m("-0.004"), "USD") == "0.00")
        #expect(MinorUnits.rounded(m("12"), "XYZ") == "12.00")
        #expect(MinorUnits.digits("JPY") == 0 && MinorUnits.digits("KRW") == 0 && MinorUnits.digits("USD") == 2 && MinorUnits.digits("BHD") == 3)
    }

    @Test func theReportsMoneyKeepsItsSignAndGroupsThousandsInEveryMinorUnit() {
        #expect(HumanFormat.money(m("1234567.5"), "JPY") == "¥1,234,568")
        #expect(HumanFormat.money(m("1234.5"), "KWD") == "KWD 1,234.500")
        #expect(HumanFormat.money(m("-0.4"), "JPY") == "¥0")
        #expect(HumanFormat.money(m("-0.5"), "JPY") == "-¥1")
    }
}
