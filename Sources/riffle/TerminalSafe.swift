import Foundation
import RiffleKit
import RiffleTUI
import Synchronization

/// Text riffle prints outside the browser, made safe for a terminal by the browser's own rules
/// (`Sanitizer`): a title, an error excerpt or a key from a server can neither steer the terminal
/// (OSC 52, CSI 2J, BEL...) nor reorder or break a line.
enum TerminalSafe {
    /// A TSV cell or a message: `Sanitizer.clean`, which shows controls as visible placeholders.
    static func text(_ text: String) -> String { Sanitizer.clean(text) }

    /// JSON text made terminal-safe (`Sanitizer.json`: C1 and bidirectional controls as `\u` escapes).
    static func json(_ text: String) -> String { Sanitizer.json(text) }

    /// `value` as a JSON string literal, terminal-safe.
    static func jsonString(_ value: String) -> String {
        var text = ""
        JSONWriter.writeString(value, into: &text)
        return json(text)
    }
}

/// Standard error: one-line messages, always through `TerminalSafe`.
enum StandardError {
    /// `riffle: MESSAGE` on one line; with `json` (`riffle dump --timings`, whose standard error
    /// holds JSON lines only) `{"error": "MESSAGE"}` instead.
    static func line(_ message: String, json: Bool = false) -> String {
        json ? "{\"error\": \(TerminalSafe.jsonString(message))}\n" : "riffle: " + TerminalSafe.text(message) + "\n"
    }

    /// Writes `line(message, json:)`.
    static func message(_ message: String, json: Bool = false) {
        write(line(message, json: json))
    }

    static func write(_ text: String) {
        guard !text.isEmpty else { return }
        lock.withLock { _ in FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Writes `line(message)` and ends the process with status 1, from any thread: no other line of
    /// riffle's follows it (one waiting to be written waits for ever), so the reason it stopped is the
    /// last thing on standard error even when another thread was about to warn.
    static func fail(_ message: String) -> Never {
        lock.withLock { _ in
            FileHandle.standardError.write(Data(line(message).utf8))
            exit(1)
        }
    }

    /// One line at a time, whichever thread writes it.
    private static let lock = Mutex(())
}
