import Foundation

/// The feeds of one file (the presets, or the user's `feeds.json`), in the file's order.
///
/// The file is `{"feeds": {"NAME": {...}, ...}}`; README's "Feeds and presets" documents every field.
///
/// ```swift
/// let catalog = try FeedCatalog.parse(data, file: "~/.config/riffle/feeds.json")
/// for definition in catalog.definitions { print(definition.usage, definition.description) }
/// ```
package struct FeedCatalog: Sendable, Equatable {
    /// The feeds, in the order the file lists them.
    package var definitions: [FeedDefinition]
    /// The file's own `hide` rules, beside `feeds`: they hide items of every feed opened while the
    /// file is read (`Feed.hide`, before the feed's own).
    package var hide: [HideRule] = []

    /// A catalog of `definitions`, in order.
    package init(definitions: [FeedDefinition] = [], hide: [HideRule] = []) {
        self.definitions = definitions
        self.hide = hide
    }

    /// The feed called `name`, if any.
    package subscript(name: String) -> FeedDefinition? { definitions.last { $0.name == name } }

    /// Parses a feeds file.
    /// - Parameters:
    ///   - data: the file's bytes (JSON).
    ///   - file: the path shown in error messages.
    ///   - presets: the presets its feeds may name (`"rust": "reddit:rust"`, `{"preset": "hn", ...}`);
    ///     nil for the presets file itself, whose feeds name none.
    /// - Throws: `FeedCatalog.Error`: one line naming the file, and the feed and field (or the line for syntax errors).
    package static func parse(_ data: Data, file: String, presets: FeedCatalog? = nil) throws(Error) -> FeedCatalog {
        let document: JSONValue
        do { document = try JSONParser.parse(data) } catch {
            let line = data.prefix(error.offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .syntax(file: file, line: line, reason: error.reason)
        }
        guard let top = document.objectValue else { throw .field(file: file, feed: nil, field: "(top level)", problem: "expected an object with \"feeds\"") }
        if let unknown = top.keys.first(where: { $0 != "feeds" && $0 != "hide" }) {
            throw .field(file: file, feed: nil, field: unknown, problem: "unknown field (expected \"feeds\" or \"hide\")")
        }
        let hide = try FieldReader.hideRules(top["hide"]) { .field(file: file, feed: nil, field: "hide", problem: $0) }
        guard let feeds = top["feeds"] else { return FeedCatalog(hide: hide) }
        guard let members = feeds.objectValue?.members else {
            throw .field(file: file, feed: nil, field: "feeds", problem: "expected an object of feeds by name, got \(feeds.kind)")
        }
        var definitions: [FeedDefinition] = []
        for (name, value) in members {
            var reader = FieldReader(file: file, feed: name, presets: presets)
            definitions.append(try reader.definition(named: name, from: value))
        }
        return FeedCatalog(definitions: definitions, hide: hide)
    }

    /// What is wrong with a feeds file; each reads as one line.
    package enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The file is not JSON; `line` is 1-based.
        case syntax(file: String, line: Int, reason: String)
        /// A field is missing, unknown or of the wrong kind.
        case field(file: String, feed: String?, field: String, problem: String)
        /// The file could not be read.
        case unreadable(file: String, reason: String)

        /// One line naming the file, and the feed and field (or the line for syntax errors).
        package var description: String {
            switch self {
            case .syntax(let file, let line, let reason): "\(file):\(line): not valid JSON: \(reason)"
            case .field(let file, let feed?, let field, let problem): "\(file): feed '\(feed)': field '\(field)': \(problem)"
            case .field(let file, nil, let field, let problem): "\(file): field '\(field)': \(problem)"
            case .unreadable(let file, let reason): "\(file): \(reason)"
            }
        }
    }
}

extension JSONValue {
    /// What kind of value this is, for error messages.
    var kind: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
