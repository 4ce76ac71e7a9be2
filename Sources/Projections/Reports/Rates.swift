/// Every rate the reports print, defined once (docs/rules.md says what each counts). A rate of
/// nothing (a zero denominator) is 0; the reports say "no data" from the counts, not the rate.
public enum Rates {
    /// `part ÷ whole`, 0 when `whole` is 0.
    public static func fraction(_ part: Int, of whole: Int) -> Double {
        whole == 0 ? 0 : Double(part) / Double(whole)
    }

    /// Trials converted to a paid period ÷ trials started (of the same cohort or window).
    public static func trialConversion(started: Int, converted: Int) -> Double { fraction(converted, of: started) }

    /// Subscribers churned in the window ÷ (churned + still active at its end).
    public static func churn(churned: Int, active: Int) -> Double { fraction(churned, of: churned + active) }

    /// Users who reached a funnel step ÷ users who reached the step before it.
    public static func step(users: Int, previous: Int) -> Double { fraction(users, of: previous) }

    /// Subscribers still paying after a period ÷ subscribers measured at that period.
    public static func retention(retained: Int, measured: Int) -> Double { fraction(retained, of: measured) }
}
