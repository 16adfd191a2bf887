import Foundation

/// A duration as people write one in riffle's files and options: decimal seconds (`"90"`, `"2.5"`),
/// or a decimal amount and a unit (`"30s"`, `"15m"`, `"2h"`, `"1d"`).
///
/// Decimal digits only: `Double(_:)` alone also reads `"0x10"` (16), `"1e3"`, `"inf"` and `"nan"`,
/// which nobody means by an interval and which a typo should not turn into one.
package enum DurationText {
    /// The seconds `text` says, or nil when it is not digits (with at most one `.` between them)
    /// and an optional unit `s`, `m`, `h` or `d`.
    package static func seconds(_ text: String) -> TimeInterval? {
        var digits = Substring(text)
        var scale: TimeInterval = 1
        if let unit = digits.last, let factor = ["s": 1.0, "m": 60, "h": 3600, "d": 86_400][unit] {
            digits = digits.dropLast()
            scale = factor
        }
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let amount = Double(digits), amount.isFinite else { return nil }
        return amount * scale
    }
}
