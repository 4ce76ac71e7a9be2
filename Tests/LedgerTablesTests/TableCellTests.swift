import Testing
import Parquet
import SubscriptionDomain
@testable import LedgerTables

/// Each cell type's value and its CSV text: times to the microsecond (rounded down, before 1970
/// too), money in micro-units, nulls as nil, and the text the ledger prints for each.
@Suite struct TableCellText {
    @Test("a time is its microseconds since 1970, rounded down, and prints back as RFC 3339")
    func times() {
        #expect(TableCell.time(nil) == .null)
        #expect(TableCell.time(Timestamp(nanoseconds: 1_999)) == .int64(1))
        #expect(TableCell.time(Timestamp(nanoseconds: -1)) == .int64(-1), "before 1970 rounds down, not toward zero")
        #expect(TableCell.time(Timestamp(nanoseconds: -1_000)) == .int64(-1))
        #expect(TableCell.time(Timestamp(nanoseconds: -1_001)) == .int64(-2))
        let instant = t("2026-01-08T10:03:00.123456Z")
        #expect(TableCell.time(instant) == .int64(instant.nanoseconds / 1000))
        #expect(TableCell.csvText(TableCell.time(instant), .timestampMicros) == "2026-01-08T10:03:00.123456Z")
        #expect(TableCell.csvText(TableCell.time(t("2026-01-08T10:03:00Z")), .timestampMicros) == "2026-01-08T10:03:00Z")
    }

    @Test("money is its micro-units and prints as the ledger prints amounts")
    func money() {
        #expect(TableCell.money(nil) == .null)
        #expect(TableCell.money(Money(micros: 9_990_000)) == .int64(9_990_000))
        #expect(TableCell.csvText(.int64(9_990_000), .decimal18x6) == "9.99")
        #expect(TableCell.csvText(.int64(1), .decimal18x6) == "0.000001")
        #expect(TableCell.csvText(.int64(-2_500_000), .decimal18x6) == "-2.50")
    }

    @Test("text, booleans, integers and nulls print as themselves; a null is no text at all")
    func plainCells() {
        #expect(TableCell.text(nil) == .null && TableCell.text("x") == .string("x"))
        #expect(TableCell.bool(nil) == .null && TableCell.bool(false) == .bool(false))
        #expect(TableCell.csvText(.bool(true), .boolean) == "true" && TableCell.csvText(.bool(false), .boolean) == "false")
        #expect(TableCell.csvText(.int64(-42), .int64) == "-42")
        #expect(TableCell.csvText(.string("a,\"b\"\n"), .string) == "a,\"b\"\n", "CSV quoting is the writer's, not the cell's")
        #expect(TableCell.csvText(.null, .string) == nil && TableCell.csvText(.null, .timestampMicros) == nil)
    }

    @Test("a period's cells fill the subscriptions columns in order, nullable ones null when the period has no value")
    func periodCells() {
        var period = SubscriptionPeriod(user: "u", product: "handz.pro.monthly", transaction: "t2", originalTransaction: "t1",
                                        start: t("2026-01-01T00:00:00Z"), expires: t("2026-02-01T00:00:00Z"), effectiveEnd: nil,
                                        isTrial: false, offer: nil, price: Money(micros: 9_990_000), currency: "USD", refundedAt: nil,
                                        familyShared: false, sandbox: true, renewalNumber: 2)
        var row: [ParquetValue] = [.string("left over")]
        period.cells(tier: "pro", into: &row)
        let columns = LedgerTable.subscriptions.columns
        #expect(row.count == columns.count)
        func cell(_ name: String) -> ParquetValue? { columns.firstIndex { $0.name == name }.map { row[$0] } }
        #expect(cell("user") == .string("u") && cell("tier") == .string("pro") && cell("original_transaction") == .string("t1"))
        #expect(cell("start") == TableCell.time(period.start) && cell("effective_end") == .null)
        #expect(cell("price") == .int64(9_990_000) && cell("sandbox") == .bool(true) && cell("renewal_number") == .int64(2))
        #expect(cell("temporary_grant") == .bool(false))
        for (value, column) in zip(row, columns) where value == .null {
            #expect(column.nullable, "\(column.name) is null but not nullable")
        }
        period.renewalNumber = nil
        period.offer = .freeTrial
        period.temporaryGrant = true
        period.cells(tier: nil, into: &row)
        #expect(cell("renewal_number") == .null && cell("tier") == .null && cell("offer") == .string("free_trial"))
        #expect(cell("temporary_grant") == .bool(true))
    }
}
