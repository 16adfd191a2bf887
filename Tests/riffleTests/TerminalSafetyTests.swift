import DemoServer
import Foundation
import Testing

/// Hostile text from a server, through `riffle dump` to the bytes it prints: nothing a terminal would
/// act on (an escape sequence, a C1 control, a bidirectional override, a line separator) gets out raw.
@Suite("riffle dump: every output is safe for a terminal")
struct TerminalSafetyTests {
    /// Titles that set the clipboard (OSC 52), the window title (OSC 0), clear the screen (CSI 2J),
    /// ring the bell, feed lines (VT, FF), use 8-bit controls (CSI as U+009B, NEL), reverse the line
    /// (U+202E, U+2067, RLM, ALM) or break it (U+2028, U+2029).
    static let titles = [
        "\u{1B}]52;c;aGFja2Vk\u{07} clipboard",
        "\u{1B}]0;pwned\u{07} window title",
        "\u{1B}[2J\u{1B}[H cleared",
        "bell\u{07} vt\u{0B} ff\u{0C} del\u{7F}",
        "c1 \u{9B}2J nel\u{85} end",
        "\u{202E}esrever\u{202C} \u{2067}iso\u{2069} rlm\u{200F} alm\u{061C}",
        "line\u{2028}para\u{2029}end",
    ]

    /// Every scalar a terminal could act on, written out here (not taken from the code under test).
    static func dangerous(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (0x7F...0x9F).contains(v) || [0x61C, 0x200E, 0x200F].contains(v)
            || (0x2028...0x202E).contains(v) || (0x2066...0x2069).contains(v)
    }

    /// The dangerous scalars in `text` other than the line structure (`\n`, and `\t` where allowed).
    static func offenders(_ text: String, allowingTabs: Bool = false) -> [String] {
        text.unicodeScalars.filter { scalar in
            scalar != "\n" && !(allowingTabs && scalar == "\t") && dangerous(scalar)
        }.map { String(format: "U+%04X", $0.value) }
    }

    static func itemsJSON() -> String {
        var text = "["
        for (i, title) in titles.enumerated() {
            var escaped = ""
            for scalar in title.unicodeScalars {
                // What JSON requires escaped; the rest (DEL, C1, bidi, U+2028) raw, as JSON allows.
                if scalar.value < 0x20 || scalar == "\"" || scalar == "\\" {
                    escaped += String(format: "\\u%04x", scalar.value)
                } else {
                    escaped.unicodeScalars.append(scalar)
                }
            }
            text += (i > 0 ? "," : "") + #"{"id": \#(i + 1), "title": "\#(escaped)", "url": "https://example.com/\#(i)"}"#
        }
        return text + "]"
    }

    /// Links a server could send to act where a script puts them (a terminal, a shell line), with
    /// the one word `y` copies for each, written out here: README's "Links" table applied by hand.
    static let linksJSON = #"""
        [{"id": 1, "title": "escape link", "url": "https://example.com/b\u001b[2J"},
         {"id": 2, "title": "shell link", "url": "https://x/$(touch$IFS/FILE)"},
         {"id": 3, "title": "wide link", "url": "https://example.com/wiki/日本 語"}]
        """#
    static let inertLinks = ["https://example.com/b%1B%5B2J", "https://x/%24%28touch%24IFS/FILE%29",
                             "https://example.com/wiki/%E6%97%A5%E6%9C%AC%20%E8%AA%9E"]

    let server: HTTPServer
    let cache: URL

    init() throws {
        let items = Self.itemsJSON()
        server = try HTTPServer { request in
            switch request.path {
            case "/items/1": .json(items)
            // No list of items, and keys that would reset the terminal and clear it.
            case "/keys/1": .json(#"{"\u001bc": 1, "\u009b2J": {"a": 1}, "\u202eevil": true}"#)
            case "/links/1": .json(Self.linksJSON)
            case "/fail/1": .text("\u{1B}]52;c;aGFja2Vk\u{07}\u{9B}2J oops", status: 500)
            // A page as a terminal would show it: red, a window title set, "Not found here".
            case "/colored/1": .text("\u{1B}[1;31mNot found\u{1B}[0m\u{1B}]0;pwned\u{1B}\\ here\u{1B}(B\u{1B}c", status: 404)
            default: .text("not found", status: 404)
            }
        }
        cache = try RiffleBinary.temporaryDirectory()
    }

    func dump(_ path: String, _ extra: [String]) async throws -> Spawn.Result {
        defer { server.stop(); try? FileManager.default.removeItem(at: cache) }
        return try await RiffleBinary.run(["dump", server.baseURL.absoluteString + path, "--cache-dir", cache.path] + extra)
    }

    @Test func tsvShowsControlsAsPlaceholders() async throws {
        let result = try await dump("/items/{page}", ["--format", "tsv", "--fields", "title,id"])
        #expect(result.status == 0, "\(result.stderr)")
        let rows = result.stdout.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(rows.count == Self.titles.count, "one row per item: \(rows)")
        #expect(rows.allSatisfy { $0.split(separator: "\t", omittingEmptySubsequences: false).count == 2 })
        #expect(Self.offenders(result.stdout, allowingTabs: true).isEmpty, "\(Self.offenders(result.stdout, allowingTabs: true))")
        #expect(rows[0] == "␛]52;c;aGFja2Vk␇ clipboard\t1")
        #expect(rows[2] == "␛[2J␛[H cleared\t3")
        #expect(rows[3] == "bell␇ vt␋ ff␌ del␡\t4")
        #expect(rows[4] == "c1 \u{FFFD}2J nel\u{FFFD} end\t5")
        // The title as the list shows it: line and paragraph separators are white space there.
        #expect(rows[6] == "line para end\t7")
    }

    @Test(arguments: ["jsonl", "json"])
    func jsonEscapesWhatJSONAllowsRaw(format: String) async throws {
        let result = try await dump("/items/{page}", ["--format", format])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(Self.offenders(result.stdout).isEmpty, "\(Self.offenders(result.stdout))")
        #expect(result.stdout.contains(#"c1 \u009B2J nel\u0085 end"#), "\(result.stdout)")
        #expect(result.stdout.contains(#"\u202Eesrever\u202C \u2067iso\u2069 rlm\u200F alm\u061C"#))
        // And it is still the same JSON: every title reads back exactly.
        let text = format == "json" ? result.stdout : "[" + result.stdout.split(separator: "\n").joined(separator: ",") + "]"
        let items = try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? [[String: Any]])
        #expect(items.map { $0["title"] as? String } == Self.titles)
    }

    /// `--fields link` is the link `y` copies and `o` opens (README, "Fields"), in every format, and
    /// `riffle search`'s `url` the same for what that dump filed.
    @Test func theLinkPrintedIsTheOneYCopies() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: cache) }
        let feed = server.baseURL.absoluteString + "/links/{page}"
        let tsv = try await RiffleBinary.run(["dump", feed, "--cache-dir", cache.path, "--format", "tsv", "--fields", "link"])
        #expect(tsv.status == 0, "\(tsv.stderr)")
        #expect(tsv.stdout.split(separator: "\n").map(String.init) == Self.inertLinks, "\(tsv.stdout)")
        let jsonl = try await RiffleBinary.run(["dump", feed, "--cache-dir", cache.path, "--offline", "--fields", "link"])
        #expect(try DumpFixture.objects(jsonl.stdout).map { $0["link"] as? String } == Self.inertLinks, "\(jsonl.stdout)")
        let found = try await RiffleBinary.run(["search", "link", "--cache-dir", cache.path, "--format", "tsv", "--fields", "url"])
        #expect(found.status == 0, "\(found.stderr)")
        #expect(Set(found.stdout.split(separator: "\n").map(String.init)) == Set(Self.inertLinks), "\(found.stdout)")
    }

    @Test func theKeysOfAResponseWithoutItemsAreShownSafely() async throws {
        let result = try await dump("/keys/{page}", [])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("riffle: page 1: "), "\(result.stderr)")
        #expect(result.stderr.contains("␛c"), "\(result.stderr)")
        #expect(Self.offenders(result.stderr).isEmpty, "\(Self.offenders(result.stderr)) in \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }

    @Test func anErrorBodyIsShownSafely() async throws {
        let result = try await dump("/fail/{page}", [])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("riffle: page 1: HTTP 500"), "\(result.stderr)")
        #expect(Self.offenders(result.stderr).isEmpty, "\(Self.offenders(result.stderr)) in \(result.stderr)")
    }

    /// An error page's escape sequences are left out whole, as a terminal would not show them: the
    /// line reads as the page would on a terminal, not "[1;31mNot found [0m ]0;pwned".
    @Test func anErrorBodyReadsWithoutItsEscapeSequences() async throws {
        let result = try await dump("/colored/{page}", [])
        #expect(result.status == 1)
        #expect(result.stderr == "riffle: page 1: HTTP 404 Not Found: Not found here\n", "\(result.stderr)")
    }

    @Test func timingsAreJSONLinesOnlyEvenForErrors() async throws {
        let result = try await dump("/keys/{page}", ["--timings"])
        #expect(result.status == 1)
        #expect(Self.offenders(result.stderr).isEmpty, "\(result.stderr)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 2, "a page line and the summary: \(result.stderr)")
        let objects = try DumpFixture.objects(result.stderr)
        #expect(objects[0]["page"] as? Int == 1)
        // The server's key reaches the error only as its visible placeholder.
        #expect((objects[0]["error"] as? String)?.contains("␛c") == true, "\(objects[0])")
        #expect(objects[1]["errors"] as? Int == 1)
    }

    @Test func aUsageErrorUnderTimingsIsAJSONLine() async throws {
        let result = try await dump("/items/{page}", ["--timings", "--pages", "x"])
        #expect(result.status == 2)
        let objects = try DumpFixture.objects(result.stderr)
        #expect(objects.count == 1)
        #expect((objects[0]["error"] as? String)?.contains("--pages") == true, "\(result.stderr)")
    }

    /// A feeds file edited by hand (or copied from elsewhere) may name a feed with an escape sequence,
    /// which `riffle add` never writes: `riffle feeds` refuses it, as add would, and the name in that
    /// line is shown safely.
    @Test func feedsNamesAFeedsFilesBadNameSafely() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: cache) }
        try FileManager.default.createDirectory(at: cache.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(#"{"feeds": {"x\u001b[2J": "hn", "y": "\#(server.baseURL.absoluteString)/items/{page}"}}"#.utf8)
            .write(to: cache.appending(path: "riffle/feeds.json"))
        let result = try await RiffleBinary.run(["feeds"], environment: ["XDG_CONFIG_HOME": cache.path])
        #expect(result.status == 2 && result.stdout.isEmpty)
        #expect(Self.offenders(result.stderr).isEmpty, "\(Self.offenders(result.stderr)) in \(result.stderr)")
        #expect(result.stderr.hasSuffix("feeds.json: feed 'x␛[2J': a feed name may hold letters, digits and - _ . (not first -), got 'x␛[2J'\n"),
                "\(result.stderr)")
    }

    @Test func theCommandLineEchoedInAnErrorIsShownSafely() async throws {
        defer { server.stop(); try? FileManager.default.removeItem(at: cache) }
        let result = try await RiffleBinary.run(["dump", "no-such-feed\u{1B}]0;x\u{07}\u{9B}"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("no-such-feed␛]0;x␇\u{FFFD}"), "\(result.stderr)")
        #expect(Self.offenders(result.stderr).isEmpty)
    }
}
