/// Arithmetic that stops at the type's bounds instead of trapping (docs/rules.md#ranges): what
/// every sum, product and moved instant past the door's range checks uses, so that no value an
/// older version accepted, and no sum of many accepted values, can crash a command.
extension FixedWidthInteger where Self: SignedInteger {
    /// `self + other`, or the nearest bound if that does not fit.
    @inline(__always) public func addingSaturated(_ other: Self) -> Self {
        let (r, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : r
    }

    /// `self - other`, or the nearest bound if that does not fit.
    @inline(__always) public func subtractingSaturated(_ other: Self) -> Self {
        let (r, overflow) = subtractingReportingOverflow(other)
        return overflow ? (other < 0 ? .max : .min) : r
    }

    /// `self * other`, or the nearest bound if that does not fit.
    @inline(__always) public func multipliedSaturated(by other: Self) -> Self {
        let (r, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : r
    }
}
