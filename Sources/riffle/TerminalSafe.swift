import Foundation
import RiffleKit
import RiffleTUI

/// Text riffle prints outside the browser, made safe for a terminal by the browser's own rules
/// (`Sanitizer`): a title, an error excerpt or a key from a server can neither steer the terminal
/// (OSC 52, CSI 2J, BEL...) nor reorder or break a line.
enum TerminalSafe {
    /// A TSV cell or a message: `Sanitizer.clean`, which shows controls as visible placeholders.
    static func text(_ text: String) -> String { Sanitizer.clean(text) }

    /// JSON text as `JSONWriter` writes it (which already escapes C0 controls, DEL, U+2028 and U+2029),
    /// with what JSON allows raw but a terminal would act on, C1 and bidirectional controls, written
    /// as `\u` escapes. Such scalars can only stand inside strings (JSON's own syntax is ASCII), where
    /// an escape means the same character, so the JSON reads back unchanged.
    static func json(_ text: String) -> String {
        // Fast path on bytes: every scalar concerned is encoded with a lead byte C2, D8 or E2.
        guard text.utf8.contains(where: { $0 == 0xC2 || $0 == 0xD8 || $0 == 0xE2 }) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80, Sanitizer.isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

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
        FileHandle.standardError.write(Data(text.utf8))
    }
}
