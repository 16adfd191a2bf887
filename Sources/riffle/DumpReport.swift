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
        let ms = Self.milliseconds(outcome.duration)
        switch outcome.result {
        case .success(let page):
            if timings {
                lines += "{\"page\": \(outcome.number), \"status\": \(page.status), \"source\": \"\(Self.sourceName(page.source))\", "
                    + "\"bytes\": \(page.data.count), \"items\": \(page.items.count), \"ms\": \(ms)}\n"
            }
        case .failure(let error):
            if timings {
                lines += "{\"page\": \(outcome.number), \"error\": \(TerminalSafe.jsonString(error.description)), \"ms\": \(ms)}\n"
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

    /// The most memory the process has held resident so far, in KB: the kernel's `VmHWM`. Not
    /// `getrusage`'s `ru_maxrss`, which also counts the memory of the process that started riffle when
    /// it was started the way `posix_spawn` does (sharing its parent's memory until it runs riffle).
    static func peakResidentKilobytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return 0 }
        return Int(line.dropFirst(6).split(whereSeparator: \.isWhitespace).first ?? "") ?? 0
    }

    /// Milliseconds with three decimals (microsecond resolution), as JSON number text.
    static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return String(format: "%.3f", Double(micros) / 1000)
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
