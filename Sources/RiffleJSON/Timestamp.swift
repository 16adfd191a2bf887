import Foundation

/// Timestamps as feeds write them: ISO 8601 text, or Unix seconds as a number or as text.
package enum Timestamp {
    /// A date from an ISO 8601 string (`2024-05-01T12:30:00Z`, with optional fraction and offset),
    /// or a number of Unix seconds (milliseconds when it is too large to be seconds), also written
    /// as text (Slack's `"1512085950.000216"`; text must be past 1973 to count, so a year or a
    /// count is not read as a date).
    package static func date(from value: JSONValue) -> Date? {
        switch value {
        case .number(let text): return seconds(text, minimum: 0)
        case .string(let text): return iso8601(text) ?? seconds(text, minimum: 1e8)
        default: return nil
        }
    }

    /// Unix seconds (or milliseconds past 1e11) written as a number's text; nil past the year 9999,
    /// which no feed means (a server's `1e300` is not a time).
    static func seconds(_ text: String, minimum: Double) -> Date? {
        guard let first = text.utf8.first, first >= 48 && first <= 57, var seconds = Double(text), seconds > minimum,
              seconds.isFinite else { return nil }
        if seconds > 1e11 { seconds /= 1000 }
        guard seconds < latest else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }

    /// 10000-01-01T00:00:00Z in Unix seconds: the first moment ISO 8601's four-digit years cannot write.
    static let latest: Double = 253_402_300_800

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH[:]MM]` without a formatter (they are slow and not
    /// Sendable). A space may stand for the `T`; without a zone the time is UTC. Dates that do not
    /// exist (February 30th, the 29th of a common year, hour 24, minute 60) and anything after the
    /// zone are rejected: nil.
    package static func iso8601(_ text: String) -> Date? {
        // Feed strings are native, so this reads their bytes in place; the copy is a fallback.
        text.utf8.withContiguousStorageIfAvailable(iso8601(bytes:)) ?? iso8601(bytes: Array(text.utf8))
    }

    /// `iso8601(_:)` of UTF-8 bytes.
    static func iso8601<Bytes: RandomAccessCollection<UInt8>>(bytes b: Bytes) -> Date? where Bytes.Index == Int {
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var n = 0
            for i in from..<from + count {
                guard (48...57).contains(b[i]) else { return nil }
                n = n * 10 + Int(b[i] - 48)
            }
            return n
        }
        guard let year = num(0, 4), b.count >= 10, b[4] == 45, let month = num(5, 2), b[7] == 45, let day = num(8, 2),
              (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year) else { return nil }
        var seconds = Double(daysFromCivil(year, month, day)) * 86_400
        var i = 10
        if i < b.count, b[i] == 84 || b[i] == 32 {  // 'T' or ' '
            guard let hour = num(i + 1, 2), b.count > i + 3, b[i + 3] == 58, let minute = num(i + 4, 2),
                  hour < 24, minute < 60 else { return nil }
            seconds += Double(hour * 3600 + minute * 60)
            i += 6
            if i < b.count, b[i] == 58, let second = num(i + 1, 2) {
                guard second <= 60 else { return nil }  // 60: a leap second
                seconds += Double(second)
                i += 3
                if i < b.count, b[i] == 46 {  // fraction
                    i += 1
                    var scale = 0.1
                    while i < b.count, (48...57).contains(b[i]) { seconds += Double(b[i] - 48) * scale; scale /= 10; i += 1 }
                }
            }
        }
        if i < b.count {
            if b[i] == 90 || b[i] == 122 {  // Z
                return i + 1 == b.count ? Date(timeIntervalSince1970: seconds) : nil
            }
            guard b[i] == 43 || b[i] == 45, let oh = num(i + 1, 2), oh < 24 else { return nil }
            // +HH, +HHMM or +HH:MM, and nothing after.
            var om = 0
            switch b.count - (i + 3) {
            case 0: break
            case 2: guard let m = num(i + 3, 2) else { return nil }; om = m
            case 3: guard b[i + 3] == 58, let m = num(i + 4, 2) else { return nil }; om = m
            default: return nil
            }
            guard om < 60 else { return nil }
            let offset = Double(oh * 3600 + om * 60)
            seconds += b[i] == 43 ? -offset : offset
        }
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days in `month` (1-12) of `year`, February's by the Gregorian leap rule.
    package static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    package static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// "just now", "42s ago", "5m ago", "3h ago", "2d ago", "4mo ago", "2y ago"; a date ahead of `now`
    /// by more than `clockSkew` says so: "in 20m", "in 3h", "in 2y" (an event's start, a server
    /// whose clock is wrong), never "just now".
    package static func age(of date: Date, now: Date) -> String {
        // Any `Date` may come here (a caller's own, a far one): the interval is clamped before it
        // becomes an integer, which would trap on infinity or beyond `Int.max`.
        let interval = now.timeIntervalSince(date)
        if interval < -clockSkew { return "in " + span(Int(min(-interval, 1e15))) }
        let s = interval.isFinite && interval > 0 ? Int(min(interval, 1e15)) : 0
        return s < 5 ? "just now" : span(s) + " ago"
    }

    /// How far ahead of this machine's clock a date may be and still read "just now": servers'
    /// clocks and ours differ by seconds to minutes.
    static let clockSkew: TimeInterval = 300

    /// `s` seconds in the largest unit that fits: "42s", "5m", "3h", "2d", "4mo", "2y".
    private static func span(_ s: Int) -> String {
        switch s {
        case ..<60: "\(s)s"
        case ..<3600: "\(s / 60)m"
        case ..<86_400: "\(s / 3600)h"
        case ..<(86_400 * 60): "\(s / 86_400)d"
        case ..<(86_400 * 730): "\(s / (86_400 * 30))mo"
        default: "\(s / (86_400 * 365))y"
        }
    }
}
