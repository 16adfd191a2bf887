import Foundation

/// HTTP dates (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, the form servers send in `Date`,
/// `Expires`, `Last-Modified` and `Retry-After`. The one parser of them in RiffleKit.
package enum HTTPDate {
    /// The date `text` names, or nil when it is not an IMF-fixdate.
    package static func parse(_ text: String) -> Date? {
        // DateFormatter is not Sendable, so one is made per call; dates are parsed once per response.
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
