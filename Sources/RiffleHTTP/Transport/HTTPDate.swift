import Foundation
import RiffleJSON

/// HTTP dates (RFC 9110 §5.6.7): `Sun, 06 Nov 1994 08:49:37 GMT`, the form servers send in `Date`,
/// `Expires`, `Last-Modified` and `Retry-After`. The one parser of them in RiffleKit.
///
/// Read field by field from the bytes: a `DateFormatter` per response cost tens of microseconds and
/// brought ICU's calendar and locale data into every process that made a request (2 MB resident).
package enum HTTPDate {
    /// The date `text` names (spaces around it ignored), or nil when it is not an IMF-fixdate.
    package static func parse(_ text: String) -> Date? {
        var text = text
        return text.withUTF8 { bytes in
            var start = 0, end = bytes.count
            while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
            while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
            return parse(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
    }

    private static let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"].map { Array($0.utf8) }

    /// `Sun, 06 Nov 1994 08:49:37 GMT`: 29 bytes, every field in its place.
    private static func parse(_ b: UnsafeBufferPointer<UInt8>) -> Date? {
        guard b.count == 29, b[3] == UInt8(ascii: ","), b[4] == 0x20, b[7] == 0x20, b[11] == 0x20, b[16] == 0x20,
              b[19] == UInt8(ascii: ":"), b[22] == UInt8(ascii: ":"), b[25] == 0x20,
              b[26] == UInt8(ascii: "G"), b[27] == UInt8(ascii: "M"), b[28] == UInt8(ascii: "T"),
              days.contains(where: { $0.elementsEqual(b[0..<3]) }),
              let month = months.firstIndex(where: { $0.elementsEqual(b[8..<11]) }).map({ $0 + 1 }) else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var value = 0
            for i in from..<from + count {
                guard b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(b[i] - UInt8(ascii: "0"))
            }
            return value
        }
        guard let day = number(5, 2), let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
              let second = number(23, 2), day >= 1, day <= Timestamp.daysIn(month: month, year: year), hour < 24, minute < 60,
              second < 60 else { return nil }
        let seconds = Timestamp.daysFromCivil(year, month, day) * 86_400 + hour * 3_600 + minute * 60 + second
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
