import Foundation
import RiffleKit
import RiffleTUI

/// `config.json` beside the feeds file: the user's defaults for the browser.
///
/// ```json
/// {"feed": "hn", "theme": "light", "browser": "firefox --new-tab %s", "watch": "5m", "seen": "scroll", "text_width": 72,
///  "keys": {"x": "open-link", "o": "none", "ctrl-n": "next-page"}}
/// ```
/// Every field is optional; an unknown one, a wrong type, a key or command that does not exist is a
/// one-line error naming the file and the field, reported before the terminal is taken over.
struct ConfigFile: Equatable {
    /// The feed `riffle` opens with no argument (instead of the feed list or the demo).
    var feed: String?
    /// The theme when `--theme` is not given.
    var theme: String?
    /// How links open, in `$BROWSER`'s form (`firefox --new-tab %s`); it wins over `$BROWSER`.
    var browser: String?
    /// The interval `w` watches page 1 at (`--watch` gives its own); 5 minutes when neither says.
    var watch: TimeInterval?
    /// When an item becomes seen besides `m`: when opened (the default), or also when moved past.
    var seen = SeenRule.open
    /// The keys, the standard ones with the file's changes.
    var keymap = KeyMap.standard
    /// The most columns a comment's text takes (20 to 1,000); 80 when absent.
    var textWidth: Int?

    static let fields: Set = ["feed", "theme", "browser", "watch", "seen", "keys", "text_width"]

    /// `config.json` in the folder of the feeds file (`$XDG_CONFIG_HOME/riffle`, else `~/.config/riffle`).
    static func location(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        FeedsFileLocation.resolve(environment: environment).deletingLastPathComponent().appendingPathComponent("config.json")
    }

    /// The user's config; an absent file is the defaults.
    static func load(environment: [String: String] = ProcessInfo.processInfo.environment) throws(Arguments.UsageError) -> ConfigFile {
        let path = location(environment: environment).path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return ConfigFile() }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw .init("\(path): \(isFolder.boolValue ? "a folder, not a file" : "not readable")")
        }
        return try parse(data, file: path)
    }

    static func parse(_ data: Data, file: String) throws(Arguments.UsageError) -> ConfigFile {
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch {
            let line = data.prefix(error.offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .init("\(file):\(line): not valid JSON: \(error.reason)")
        }
        guard let object = document.objectValue else { throw .init("\(file): expected an object of settings") }
        func problem(_ field: String, _ text: String) -> Arguments.UsageError { .init("\(file): field '\(field)': \(text)") }
        if let unknown = object.keys.first(where: { !fields.contains($0) }) {
            throw problem(unknown, "unknown field (expected one of \(fields.sorted().joined(separator: ", ")))")
        }
        func text(_ key: String) throws(Arguments.UsageError) -> String? {
            guard let value = object[key] else { return nil }
            guard let string = value.stringValue, !string.isEmpty else { throw problem(key, "expected a non-empty string") }
            return string
        }
        var config = ConfigFile(feed: try text("feed"), theme: try text("theme"), browser: try text("browser"))
        if let theme = config.theme, !ThemeFile.names.contains(theme) {
            throw problem("theme", "must be one of \(ThemeFile.names.joined(separator: ", ")), got '\(theme)'")
        }
        if let value = object["watch"] {
            // A JSON number is seconds as JSON writes them; text is read as DurationText reads it.
            guard let seconds = value.doubleValue.flatMap(Interval.within) ?? value.stringValue.flatMap(Interval.seconds) else {
                throw problem("watch", "expected seconds or text like \"30s\", \"5m\", \"1h\" (10 s to a day)")
            }
            config.watch = seconds
        }
        if let value = object["text_width"] {
            guard let number = value.doubleValue, number == number.rounded(), (20...1_000).contains(number) else {
                throw problem("text_width", "expected a whole number of columns from 20 to 1000, got \(value.scalarText ?? "a list or an object")")
            }
            config.textWidth = Int(number)
        }
        if let value = object["seen"] {
            let names = SeenRule.allCases.map(\.rawValue)
            guard let rule = value.stringValue.flatMap(SeenRule.init(rawValue:)) else {
                throw problem("seen", "must be one of \(names.joined(separator: ", ")), got \(value.stringValue.map { "'\($0)'" } ?? "something that is not text")")
            }
            config.seen = rule
        }
        if let keys = object["keys"] {
            guard let members = keys.objectValue?.members else { throw problem("keys", "expected an object of key: command") }
            for (key, command) in members {
                guard let name = command.stringValue else { throw problem("keys.\(key)", "expected a command name") }
                do { try config.keymap.bind(key, to: name) } catch { throw problem("keys.\(key)", error.description) }
            }
        }
        return config
    }
}

/// A watch interval as written: seconds, or "30s", "5m", "1h" (`DurationText`); from 10 seconds to a day.
enum Interval {
    static let range: ClosedRange<TimeInterval> = 10...86_400

    static func seconds(_ text: String) -> TimeInterval? { DurationText.seconds(text).flatMap(within) }

    /// `seconds` when it is in `range`.
    static func within(_ seconds: TimeInterval) -> TimeInterval? { range.contains(seconds) ? seconds : nil }
}
