import Foundation
import RiffleTUI
import Testing
@testable import riffle

@Suite("config.json: the user's defaults and keys")
struct ConfigFileTests {
    static func parse(_ text: String) throws(Arguments.UsageError) -> ConfigFile {
        try ConfigFile.parse(Data(text.utf8), file: "/home/u/.config/riffle/config.json")
    }

    @Test func everyFieldIsRead() throws {
        let config = try Self.parse(#"""
            {"feed": "hn", "theme": "light", "browser": "firefox --new-tab %s", "watch": "5m", "seen": "scroll",
             "keys": {"x": "open-link", "o": "none", "ctrl-n": "next-page"}}
            """#)
        #expect(config.feed == "hn" && config.theme == "light" && config.browser == "firefox --new-tab %s")
        #expect(config.seen == .scroll && ConfigFile().seen == .open)
        #expect(config.watch == 300)
        #expect(config.keymap.command(for: .character("x")) == .openLink)
        #expect(config.keymap.command(for: .character("o")) == nil)
        #expect(config.keymap.command(for: .control("n")) == .nextPage)
        // The keys it does not name keep their standard meaning.
        #expect(config.keymap.command(for: .character("j")) == .down)
    }

    @Test(arguments: [(#"90"#, 90.0), (#""90""#, 90), (#"1.5e2"#, 150), (#""2.5m""#, 150), (#""1h""#, 3600), (#""1d""#, 86_400)])
    func aWatchIntervalIsSecondsOrDecimalTextWithAUnit(value: String, seconds: Double) throws {
        #expect(try Self.parse(#"{"watch": \#(value)}"#).watch == seconds)
    }

    @Test func anEmptyObjectIsTheDefaults() throws {
        #expect(try Self.parse("{}") == ConfigFile())
    }

    @Test(arguments: [
        (#"{"feeds": "hn"}"#, "config.json: field 'feeds': unknown field (expected one of browser, feed, keys, seen, text_width, theme, watch)"),
        (#"{"feed": 3}"#, "config.json: field 'feed': expected a non-empty string"),
        (#"{"feed": ""}"#, "config.json: field 'feed': expected a non-empty string"),
        (#"{"theme": "solarized"}"#, "config.json: field 'theme': must be one of"),
        (#"{"watch": "5 minutes"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": 2}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "0x10"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "0x1p4m"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "1e2"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "infs"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "+60"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": "1.m"}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"watch": true}"#, "config.json: field 'watch': expected seconds or text like"),
        (#"{"keys": ["x"]}"#, "config.json: field 'keys': expected an object of key: command"),
        (#"{"keys": {"x": "teleport"}}"#, "config.json: field 'keys.x': "),
        (#"{"keys": {"ctrl-shift-x": "quit"}}"#, "config.json: field 'keys.ctrl-shift-x': "),
        (#"{"keys": {"x": 1}}"#, "config.json: field 'keys.x': expected a command name"),
        (#"{"seen": "hover"}"#, "config.json: field 'seen': must be one of open, scroll, got 'hover'"),
        (#"{"seen": true}"#, "config.json: field 'seen': must be one of open, scroll, got something that is not text"),
        ("[1]", "config.json: expected an object of settings"),
        ("{\n  \"feed\": \"hn\",\n  \"theme\": }\n", "config.json:3: not valid JSON"),
    ])
    func aMistakeIsOneLineNamingTheFileAndTheField(text: String, message: String) {
        #expect {
            _ = try Self.parse(text)
        } throws: { error in
            let description = (error as? Arguments.UsageError)?.description ?? ""
            return description.contains(message) && !description.contains("\n")
        }
    }

    @Test func unknownKeysAndCommandsAreNamed() {
        #expect(throws: Arguments.UsageError.self) { try Self.parse(#"{"keys": {"x": "teleport"}}"#) }
        do {
            _ = try Self.parse(#"{"keys": {"x": "teleport"}}"#)
        } catch {
            #expect(error.description.contains("teleport"), "\(error)")
        }
    }

    @Test(arguments: [("90", 90.0), ("30s", 30), ("5m", 300), ("1h", 3600), ("10", 10), ("86400", 86_400), ("1.5m", 90)])
    func intervalsAreSecondsOrAUnit(text: String, seconds: Double) {
        #expect(Interval.seconds(text) == seconds)
    }

    @Test(arguments: ["9", "9s", "25h", "-5m", "5 m", "m", "", "5d", "nan", "inf"])
    func intervalsOutsideTenSecondsToADayAreRefused(text: String) {
        #expect(Interval.seconds(text) == nil)
    }

    @Test func itLivesBesideTheFeedsFile() {
        #expect(ConfigFile.location(environment: ["XDG_CONFIG_HOME": "/x/conf"]).path == "/x/conf/riffle/config.json")
        #expect(ConfigFile.location(environment: ["HOME": "/home/u"]).path == "/home/u/.config/riffle/config.json")
    }

    @Test func aMissingFileIsTheDefaultsAndAFolderIsAnError() throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        #expect(try ConfigFile.load(environment: ["XDG_CONFIG_HOME": home.path]) == ConfigFile())
        try FileManager.default.createDirectory(at: home.appending(path: "riffle/config.json"), withIntermediateDirectories: true)
        #expect(throws: Arguments.UsageError.self) { try ConfigFile.load(environment: ["XDG_CONFIG_HOME": home.path]) }
    }

    @Test func aBadConfigIsReportedBeforeTheTerminalIsTouched() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(#"{"theme": "solarized"}"#.utf8).write(to: home.appending(path: "riffle/config.json"))
        // Not on a terminal: the config's error comes first, with status 2.
        let result = try await RiffleBinary.run([], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("config.json: field 'theme': must be one of"), "\(result.stderr)")
    }

    /// A feed config.json names that does not exist is config.json's mistake, and the message says so;
    /// the same name typed on the command line is not.
    @Test func anUnknownFeedInConfigNamesTheFile() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "riffle"), withIntermediateDirectories: true)
        let file = home.appending(path: "riffle/config.json")
        try Data(#"{"feed": "hackernews"}"#.utf8).write(to: file)
        let result = try await RiffleBinary.run(["--cache-dir", home.appending(path: "cache").path], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 2)
        #expect(result.stderr.contains("\(file.path): field 'feed': unknown feed 'hackernews'; presets: hn"), "\(result.stderr)")
        let typed = try await RiffleBinary.run(["hackernews", "--cache-dir", home.appending(path: "cache").path], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(typed.status == 2 && typed.stderr.contains("unknown feed 'hackernews'") && !typed.stderr.contains("config.json"), "\(typed.stderr)")
    }
}
