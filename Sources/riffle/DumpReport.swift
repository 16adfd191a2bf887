import Foundation
import RiffleKit
import Synchronization

/// What `riffle dump` says on standard error: failed pages (always), a progress bar (on a terminal
/// only) and, with `--timings`, one JSON line per page and a summary line. With `--timings` standard
/// error holds JSON lines only: a failed page is a line with an `error` field, and there is no bar.
/// Text from a server (an error excerpt, a response's keys) goes through `TerminalSafe`. What the
/// loader and its cache log (pages that could not be stored, a damaged entry removed) is printed
/// once per distinct line, as `riffle: warning: ...` (with `--timings`, `{"warning": ...}`).
final class DumpReport {
    private let timings: Bool
    private let progress: Bool
    /// Pages asked for; nil for an open range (`--pages 2-`, `--all`), which runs to the feed's end.
    private let total: Int?
    private let warnings: DumpWarnings
    private var done = 0

    init(timings: Bool, progress: Bool, total: Int?, warnings: DumpWarnings = DumpWarnings()) {
        self.timings = timings
        self.progress = progress && !timings
        self.total = total
        self.warnings = warnings
        drawProgress()
    }

    func page(_ outcome: DumpCommand.Outcome) {
        done += 1
        var lines = pendingWarnings()
        switch outcome.result {
        case .success(let page):
            if timings {
                lines += "{\"page\": \(outcome.number), \"status\": \(page.status), \"source\": \"\(Self.sourceName(page.source))\", "
                    + "\"bytes\": \(page.data.count), \"items\": \(page.items.count), \"ms\": \(Self.milliseconds(outcome.duration))}\n"
            }
        case .failure(let error):
            if timings {
                lines += "{\"page\": \(outcome.number), \"error\": \(TerminalSafe.jsonString(error.description)), "
                    + "\"ms\": \(Self.milliseconds(outcome.duration))}\n"
            } else {
                lines += StandardError.line("page \(outcome.number): \(error.description)")
            }
        }
        emit(lines)
    }

    func summary(pages: Int, errors: Int, initial: Duration, total: Duration) {
        var text = pendingWarnings()
        if timings {
            text += "{\"pages\": \(pages), \"errors\": \(errors), \"init_ms\": \(Self.milliseconds(initial)), "
                + "\"total_ms\": \(Self.milliseconds(total)), \"peak_rss_kb\": \(Self.peakResidentKilobytes())}\n"
        }
        if progress { text = "\r\u{1B}[K" + text }
        write(text)
    }

    private func pendingWarnings() -> String {
        warnings.take().map { timings ? "{\"warning\": \(TerminalSafe.jsonString($0))}\n" : StandardError.line("warning: " + $0) }.joined()
    }

    /// The names `--timings` uses for where a page came from.
    static func sourceName(_ source: Page.Source) -> String {
        switch source {
        case .cache: "cache"
        case .network: "network"
        case .revalidated: "revalidated"
        case .stale: "stale"
        }
    }

    /// The most memory the process has held resident so far, in KB: the kernel's `VmHWM`; 0 where
    /// there is no `/proc`. Not `getrusage`'s `ru_maxrss`, which also counts the memory of the process
    /// that started riffle when it was started the way `posix_spawn` does (sharing its parent's memory
    /// until it runs riffle). Read with `read(2)`: Foundation's file reading would bring code into
    /// memory that the figure would then count.
    static func peakResidentKilobytes() -> Int {
        let file = open("/proc/self/status", O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { return 0 }
        defer { close(file) }
        var status = [UInt8](repeating: 0, count: 8192)
        let count = read(file, &status, status.count)
        return count > 0 ? kilobytes(of: "VmHWM", in: status[..<count]) ?? 0 : 0
    }

    /// The number of a `/proc/PID/status` line such as `VmHWM:\t   24836 kB`.
    static func kilobytes(of field: String, in status: ArraySlice<UInt8>) -> Int? {
        let key = Array((field + ":").utf8)
        var index = status.startIndex
        while index < status.endIndex {
            let lineEnd = status[index...].firstIndex(of: UInt8(ascii: "\n")) ?? status.endIndex
            if status[index..<lineEnd].starts(with: key) {
                var value = 0, digits = 0
                for byte in status[(index + key.count)..<lineEnd] {
                    if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") {
                        if digits > 0 { break }
                        continue
                    }
                    guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { break }
                    value = value * 10 + Int(byte - UInt8(ascii: "0"))
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            index = lineEnd + 1
        }
        return nil
    }

    /// Milliseconds with three decimals (microsecond resolution), as JSON number text.
    /// Integer arithmetic, not `String(format:)`, whose CoreFoundation formatting brought about 370 KB
    /// of riffle's binary into memory for a dump with `--timings`.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        let fraction = String(abs(micros) % 1000)
        return (micros < 0 ? "-" : "") + String(abs(micros) / 1000) + "." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    /// Writes lines above the bar, then redraws the bar.
    private func emit(_ lines: String) {
        guard progress else { write(lines); return }
        write("\r\u{1B}[K" + lines)
        drawProgress()
    }

    private func drawProgress() {
        guard progress else { return }
        guard let total else {
            write("\r\(done) page\(done == 1 ? "" : "s")")
            return
        }
        let width = 30
        let filled = total == 0 ? width : min(width, done * width / total)
        write("\r[" + String(repeating: "#", count: filled) + String(repeating: " ", count: width - filled) + "] \(done)/\(total) pages")
    }

    private func write(_ text: String) { StandardError.write(text) }
}

/// Log lines from any thread, each distinct one kept once until the report prints it.
final class DumpWarnings: Sendable {
    private let state = Mutex<(seen: Set<String>, pending: [String])>(([], []))

    func add(_ line: String) {
        state.withLock { if $0.seen.insert(line).inserted { $0.pending.append(line) } }
    }

    func take() -> [String] {
        state.withLock { state in
            defer { state.pending.removeAll() }
            return state.pending
        }
    }
}
