import Reports
import SubscriptionDomain

/// Money in a text output: a table (for people) rounds to the currency's minor unit (JPY none,
/// USD cents); CSV and JSON (for scripts) keep the exact decimal the ledger holds.
enum MoneyCell {
    static func text(_ m: Money, _ currency: String, _ format: OutputFormat) -> String {
        format == .table ? MinorUnits.rounded(m, currency) : m.description
    }
}
