import Foundation
import RiffleKit
import Testing
@testable import NcursesTerminal
@testable import RiffleTUI

/// What a paste of riffle's copy does in a shell: the OSC 52 bytes riffle writes for `y` and `Y`,
/// decoded as the terminal decodes them, then pasted into a line editor that reads bracketed paste.
@Suite("copying: a paste of what y and Y copy is inert")
struct ClipboardPasteTests {
    /// A link built to run `touch` when pasted: it ends the bracketed paste, then types a command and
    /// Enter; C1 CSI (U+009B) does the same on terminals that read 8-bit controls.
    static let hostileLink = "https://x.test/a\u{1B}[201~\ntouch /tmp/riffle-pasted\n\u{9B}201~\r\u{85}\u{202E}\u{2028}"

    static let hostileFields: JSONValue = [
        "title": "a\u{1B}[201~\ntouch /tmp/riffle-pasted\n",
        "c1": "\u{9B}201~\u{85}",
        "bidi": "\u{202E}\u{2066}txt\u{2069}",
        "lines": "\u{2028}\u{2029}\r\u{7F}",
        "plain": "日本語 😀",
    ]

    /// The text the clipboard gets from the sequence `setClipboard` writes: `ESC ] 52 ; c ; BASE64 BEL`.
    static func clipboard(from sequence: [UInt8]) throws -> [UInt8] {
        let prefix = Array("\u{1B}]52;c;".utf8)
        #expect(Array(sequence.prefix(prefix.count)) == prefix)
        #expect(sequence.last == 0x07)
        let base64 = String(decoding: sequence.dropFirst(prefix.count).dropLast(), as: UTF8.self)
        return Array(try #require(Data(base64Encoded: base64)))
    }

    /// A line editor reading a bracketed paste (xterm's `ESC[200~` ... `ESC[201~`, as bash's readline
    /// and zsh's ZLE read it): what lands in the line as pasted text, and what comes after the first
    /// end marker, which the editor takes as typed keys.
    struct BracketedPaste {
        var pasted: [UInt8] = []
        var typed: [UInt8] = []

        init(pasting text: [UInt8]) {
            let end = Array("\u{1B}[201~".utf8)
            let stream = Array("\u{1B}[200~".utf8) + text + end
            var index = 6
            while index < stream.count {
                if Array(stream[index..<min(stream.count, index + end.count)]) == end {
                    typed = Array(stream[(index + end.count)...])
                    return
                }
                pasted.append(stream[index])
                index += 1
            }
        }

        /// Whether a byte or character of the paste would act rather than be text: C0 (line breaks
        /// included), DEL, C1 (U+0085 NEL and U+009B CSI among them), bidirectional controls, line and
        /// paragraph separators.
        var holdsControls: Bool {
            if pasted.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return true }
            return String(decoding: pasted, as: UTF8.self).unicodeScalars.contains { scalar in
                (0x80...0x9F).contains(scalar.value) || [0x61C, 0x200E, 0x200F].contains(scalar.value)
                    || (0x2028...0x202E).contains(scalar.value) || (0x2066...0x2069).contains(scalar.value)
            }
        }
    }

    /// A browser listing one item, the one given.
    static func browser(showing item: Item) -> AppState {
        let now = Date(timeIntervalSince1970: 1_700_000_000)
        var state = AppState(feedTitle: "hostile", size: Size(width: 60, height: 10), now: now)
        _ = App.update(&state, .start)
        _ = App.update(&state, .pageLoaded(Page(number: 1, items: [item], data: Data(), source: .network, fetchedAt: now, status: 200)))
        return state
    }

    /// The text of the one `.copy` effect pressing `key` gives.
    static func copied(pressing key: Character, on item: Item) throws -> String {
        var state = browser(showing: item)
        let effects = App.update(&state, .event(.key(.character(key))))
        let text = effects.compactMap { effect -> String? in if case .copy(let text, _) = effect { text } else { nil } }
        try #require(text.count == 1, "one copy: \(effects)")
        return text[0]
    }

    @Test func aPastedLinkNeverEndsThePasteNorStartsALine() throws {
        let item = Item(id: "1", title: "t", details: [], url: Self.hostileLink, createdAt: nil, fields: [:])
        let link = try Self.copied(pressing: "y", on: item)
        let paste = BracketedPaste(pasting: try Self.clipboard(from: NcursesScreen.clipboardSequence(link)))

        #expect(paste.typed.isEmpty, "nothing after the paste's end is typed: \(String(decoding: paste.typed, as: UTF8.self))")
        #expect(!paste.holdsControls, "\(String(decoding: paste.pasted, as: UTF8.self).debugDescription)")
        #expect(paste.pasted.allSatisfy { (0x21...0x7E).contains($0) }, "one word of printable ASCII")
        // The same link `o` opens, its parts still there.
        #expect(String(decoding: paste.pasted, as: UTF8.self).hasPrefix("https://x.test/a%1B%5B201~touch%20/tmp"))
    }

    @Test func pastedJSONIsInertAndStillTheSameJSON() throws {
        let item = Item(id: "1", title: "t", details: [], url: nil, createdAt: nil, fields: Self.hostileFields)
        let json = try Self.copied(pressing: "Y", on: item)
        let paste = BracketedPaste(pasting: try Self.clipboard(from: NcursesScreen.clipboardSequence(json)))

        #expect(paste.typed.isEmpty)
        #expect(!paste.holdsControls, "\(String(decoding: paste.pasted, as: UTF8.self).debugDescription)")
        #expect(try JSONParser.parse(paste.pasted) == Self.hostileFields, "valid JSON, every string as it was")
        #expect(String(decoding: paste.pasted, as: UTF8.self).contains("日本語 😀"), "printable text is left as it is")
    }
}
