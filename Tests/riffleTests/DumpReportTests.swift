import Foundation
import Testing
@testable import riffle

@Suite("riffle dump --timings' figures")
struct DumpReportTests {
    /// What `--timings` writes as `ms`: milliseconds to the microsecond, always three decimals.
    @Test(arguments: [
        (Duration.zero, "0.000"), (.microseconds(7), "0.007"), (.microseconds(40), "0.040"), (.microseconds(999), "0.999"),
        (.milliseconds(1), "1.000"), (.microseconds(12_345), "12.345"), (.seconds(3), "3000.000"),
        (.nanoseconds(1_999), "0.001"), (.microseconds(-1_500), "-1.500"),
    ])
    func millisecondsHaveThreeDecimals(duration: Duration, text: String) {
        #expect(DumpReport.milliseconds(duration) == text)
    }
}

extension DumpReportTests {
    static let status = "Name:\triffle\nVmPeak:\t  289876 kB\nVmHWM:\t   24836 kB\nVmRSS:\t   23112 kB\nThreads:\t5\n"

    /// `peak_rss_kb` is the `VmHWM` line's number, not another line's.
    @Test func thePeakIsTheHighWaterMarkLine() {
        let bytes = ArraySlice(Array(Self.status.utf8))
        #expect(DumpReport.kilobytes(of: "VmHWM", in: bytes) == 24_836)
        #expect(DumpReport.kilobytes(of: "VmRSS", in: bytes) == 23_112)
        #expect(DumpReport.kilobytes(of: "VmSwap", in: bytes) == nil)
        #expect(DumpReport.kilobytes(of: "Name", in: bytes) == nil)
    }

    /// This process's own figure: at least its resident memory a moment before.
    @Test func thePeakOfThisProcessIsAtLeastWhatItHoldsNow() throws {
        let now = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let resident = try #require(DumpReport.kilobytes(of: "VmRSS", in: ArraySlice(Array(now.utf8))))
        #expect(DumpReport.peakResidentKilobytes() >= resident)
        #expect(resident > 1_000)
    }
}
