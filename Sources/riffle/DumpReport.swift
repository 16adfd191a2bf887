import Foundation
import RiffleKit

/// What `riffle dump` says on standard error: failed pages (always), a progress bar (on a terminal
/// only) and, with `--timings`, one JSON line per page and a summary line. With `--timings` standard
/// error holds JSON lines only: a failed page is a line with an `error` field, and there is no bar.
/// Text from a server (an error excerpt, a response's keys) goes through `TerminalSafe`.
final class DumpReport {
    private let timings: Bool
    private let progress: Bool
    /// Pages asked for; nil for an open range (`--pages 2-`, `--all`), which runs to the feed's end.
    private let total: Int?
    private var done = 0

    init(timings: Bool, progress: Bool, total: Int?) {
        self.timings = timings
        self.progress = progress && !timings
        self.total = total
        drawProgress()
    }

    func page(_ outcome: DumpCommand.Outcome) {
        done += 1
        var lines = ""
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
        var text = ""
        if timings {
            text = "{\"pages\": \(pages), \"errors\": \(errors), \"init_ms\": \(Self.milliseconds(initial)), "
                + "\"total_ms\": \(Self.milliseconds(total))}\n"
        }
        if progress { text = "\r\u{1B}[K" + text }
        write(text)
    }

    /// The names `--timings` uses for where a page came from.
    static func sourceName(_ source: Page.Source) -> String {
        switch source {
        case .disk: "cache"
        case .network: "network"
        case .revalidated: "revalidated"
        case .stale: "stale"
        }
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
