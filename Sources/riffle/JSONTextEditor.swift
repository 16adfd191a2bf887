import Foundation
import RiffleKit

/// Changes one member of a JSON document's text and leaves every other byte as the user wrote it:
/// their indentation, spacing, member order, number spellings and escapes. What riffle writes into
/// `feeds.json` (a pinned field, `riffle add`, a rename or a removal in the feed list) goes through it.
///
/// The text must be valid JSON (comments-free, as `JSONParser` reads it) whose top level is an
/// object; an empty (or blank) text is an empty object. A member is named by its keys from the top
/// (`["feeds", "hn", "fields", "title"]`); where a key appears twice the last one counts, as readers
/// of the file take the last one. A member added goes after its object's last member, laid out as
/// that object's members are (on lines of their own with the same indent, or on one line).
///
/// ```
/// var editor = try JSONTextEditor(Data("{\n  \"feeds\": {}\n}\n".utf8))
/// try editor.set(["feeds", "rust"], to: "reddit:rust")
/// // {\n  "feeds": {\n    "rust": "reddit:rust"\n  }\n}\n
/// ```
struct JSONTextEditor {
    /// The text as it now is.
    private(set) var bytes: [UInt8]
    /// Whether it started blank: what is added then goes on lines of its own.
    private let startedBlank: Bool

    /// What stops an edit; each reads as one line (the caller adds the file's name).
    enum Problem: Error, Equatable, CustomStringConvertible {
        /// The text is not JSON; `line` is 1-based.
        case syntax(line: Int, reason: String)
        /// The top level is not an object (it is `kind`).
        case notAnObject(kind: String)
        /// A member on the way is not an object (`feeds.hn` is a string), so nothing can go inside it.
        case notAnObjectAt(path: [String], kind: String)

        var description: String {
            switch self {
            case .syntax(let line, let reason): "line \(line): not valid JSON: \(reason)"
            case .notAnObject(let kind): "expected a JSON object at the top level, got \(kind)"
            case .notAnObjectAt(let path, let kind): "'\(path.joined(separator: "."))' is \(kind), not an object"
            }
        }
    }

    /// An editor on `data`, which must be JSON with an object at the top (or blank).
    /// - Throws: `Problem.syntax` naming the line, `Problem.notAnObject`.
    init(_ data: Data) throws(Problem) {
        let bytes = [UInt8](data)
        startedBlank = bytes.allSatisfy(Self.isSpace)
        if startedBlank {
            self.bytes = Array("{}\n".utf8)
            return
        }
        let value: JSONValue
        do { value = try JSONParser.parse(data) } catch {
            let line = bytes.prefix(error.offset).reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            throw .syntax(line: line, reason: error.reason)
        }
        guard value.objectValue != nil else { throw .notAnObject(kind: Self.kind(value)) }
        self.bytes = bytes
    }

    /// The text as data.
    var data: Data { Data(bytes) }

    /// The value of the member at `path` as it reads now; nil when there is none.
    func value(at path: [String]) -> JSONValue? {
        guard let root = try? JSONParser.parse(bytes) else { return nil }
        return path.reduce(Optional(root)) { value, key in value?.objectValue?[key] }
    }

    /// Whether the member at `path` is there.
    func contains(_ path: [String]) -> Bool { value(at: path) != nil }

    // MARK: Edits

    /// Sets the member at `path` to `value`: its value's text is replaced where it is, or the member
    /// is added after the last member of its object. Objects missing on the way are added too.
    /// - Throws: `Problem.notAnObjectAt` when a member on the way is not an object.
    mutating func set(_ path: [String], to value: JSONValue) throws(Problem) {
        precondition(!path.isEmpty, "the top level is not a member")
        var scanner = Scanner(bytes)
        var object = scanner.root()
        var depth = 0
        while true {
            let key = path[depth]
            guard let member = object.members.last(where: { $0.key == key }) else {
                // Missing: the rest of the path is built as nested objects around `value`.
                let built = path[(depth + 1)...].reversed().reduce(value) { inner, key in .object(JSONObject([(key, inner)])) }
                insert(key: key, value: built, into: object)
                return
            }
            if depth == path.count - 1 {
                let text = render(value, indent: Self.isMultiline(bytes) ? indent(ofLineAt: member.keyStart) : nil)
                bytes.replaceSubrange(member.valueStart..<member.valueEnd, with: text)
                return
            }
            guard case .object(let inner) = member.value else {
                throw .notAnObjectAt(path: Array(path[...depth]), kind: Self.kind(scanner.value(member)))
            }
            object = inner
            depth += 1
        }
    }

    /// Removes the member at `path` (each, when its key appears twice) with the comma that joined it
    /// to its neighbours; nothing when it is not there. Returns whether something was removed.
    @discardableResult
    mutating func remove(_ path: [String]) -> Bool {
        var removed = false
        while removeLast(path) { removed = true }
        return removed
    }

    private mutating func removeLast(_ path: [String]) -> Bool {
        var scanner = Scanner(bytes)
        guard let (object, index) = scanner.locate(path) else { return false }
        let member = object.members[index]
        let range: Range<Int>
        if object.members.count == 1 {
            // The only member: the object becomes `{}`.
            range = (object.open + 1)..<object.close
        } else if index + 1 < object.members.count {
            // Up to the next member's key, so the space before this one is the next one's now.
            range = member.keyStart..<object.members[index + 1].keyStart
        } else {
            // The last one: from the end of the member before it, so its comma goes too.
            range = object.members[index - 1].valueEnd..<member.valueEnd
        }
        bytes.removeSubrange(range)
        return true
    }

    /// Gives the member at `path` (each, when its key appears twice) the key `newKey`, in place: its
    /// value and position stay. Returns whether it was there.
    @discardableResult
    mutating func rename(_ path: [String], to newKey: String) -> Bool {
        guard path.last != newKey else { return contains(path) }
        var renamed = false
        while true {
            var scanner = Scanner(bytes)
            guard let (object, index) = scanner.locate(path) else { return renamed }
            let member = object.members[index]
            bytes.replaceSubrange(member.keyStart..<member.keyEnd, with: Self.quoted(newKey))
            renamed = true
        }
    }

    // MARK: Layout

    /// Adds `"key": value` at the end of `object`, laid out as its members are.
    private mutating func insert(key: String, value: JSONValue, into object: Scanner.Object) {
        let colon = object.members.last.map { Array(bytes[$0.keyEnd..<$0.valueStart]) } ?? Array(": ".utf8)
        if let last = object.members.last {
            // The space before the last member's key (after its `{` or comma) is the space before this one.
            var before = Array(bytes[Self.tokenEnd(before: last.keyStart, in: bytes)..<last.keyStart])
            // A lone member written tight against its `{`: a space after the comma, as people write.
            if object.members.count == 1, before.isEmpty { before = [UInt8(ascii: " ")] }
            let indent = before.contains(UInt8(ascii: "\n")) ? Array(before.drop { $0 != UInt8(ascii: "\n") }.dropFirst()) : nil
            let text = [UInt8(ascii: ",")] + before + Self.quoted(key) + colon + render(value, indent: indent)
            bytes.insert(contentsOf: text, at: last.valueEnd)
            return
        }
        // An empty object: on lines of their own in a text that has several lines, else on its line.
        let multiline = startedBlank || Self.isMultiline(bytes)
        let text: [UInt8]
        if multiline {
            let outer = indent(ofLineAt: object.open)
            let inner = outer + unit
            text = [UInt8(ascii: "\n")] + inner + Self.quoted(key) + colon + render(value, indent: inner) + [UInt8(ascii: "\n")] + outer
        } else {
            text = Self.quoted(key) + colon + render(value, indent: nil)
        }
        bytes.replaceSubrange((object.open + 1)..<object.close, with: text)
    }

    /// The whitespace that starts the line holding `offset`.
    private func indent(ofLineAt offset: Int) -> [UInt8] {
        var start = offset
        while start > 0, bytes[start - 1] != UInt8(ascii: "\n") { start -= 1 }
        var end = start
        while end < offset, bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\t") { end += 1 }
        return Array(bytes[start..<end])
    }

    /// One level of indentation as the text does it: the first member's indent on its own line,
    /// less its object's; two spaces when nothing says.
    private var unit: [UInt8] {
        var scanner = Scanner(bytes)
        var objects = [scanner.root()]
        while !objects.isEmpty {
            let object = objects.removeFirst()
            if let first = object.members.first {
                let outer = indent(ofLineAt: object.open), inner = indent(ofLineAt: first.keyStart)
                let separated = bytes[Self.tokenEnd(before: first.keyStart, in: bytes)..<first.keyStart].contains(UInt8(ascii: "\n"))
                if separated, inner.count > outer.count, inner.starts(with: outer) { return Array(inner.dropFirst(outer.count)) }
            }
            objects += object.members.compactMap { if case .object(let inner) = $0.value { inner } else { nil } }
        }
        return Array("  ".utf8)
    }

    /// `value` as text: on lines indented from `indent` (a level more per level), or on one line when nil.
    private func render(_ value: JSONValue, indent: [UInt8]?) -> [UInt8] {
        guard let indent else {
            var out = ""
            Self.writeInline(value, into: &out)
            return Array(out.utf8)
        }
        let unit = self.unit
        func write(_ value: JSONValue, _ indent: [UInt8], _ out: inout [UInt8]) {
            switch value {
            case .object(let object) where object.count > 0:
                out += Array("{\n".utf8)
                for (i, member) in object.members.enumerated() {
                    out += indent + unit + Self.quoted(member.key) + Array(": ".utf8)
                    write(member.value, indent + unit, &out)
                    out += Array((i == object.count - 1 ? "\n" : ",\n").utf8)
                }
                out += indent + [UInt8(ascii: "}")]
            default:
                var text = ""
                Self.writeInline(value, into: &text)
                out += Array(text.utf8)
            }
        }
        var out: [UInt8] = []
        write(value, indent, &out)
        return out
    }

    /// One line of JSON with `": "` and `", "` between parts, as people write small objects.
    private static func writeInline(_ value: JSONValue, into out: inout String) {
        switch value {
        case .array(let elements):
            out += "["
            for (i, element) in elements.enumerated() {
                if i > 0 { out += ", " }
                writeInline(element, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += ", " }
                JSONWriter.writeString(member.key, into: &out)
                out += ": "
                writeInline(member.value, into: &out)
            }
            out += "}"
        default:
            JSONWriter.write(value, into: &out)
        }
    }

    /// `text` as a JSON string literal.
    static func quoted(_ text: String) -> [UInt8] {
        var out = ""
        JSONWriter.writeString(text, into: &out)
        return Array(out.utf8)
    }

    /// Where the token before `offset` ends (just after a `{` or `,`, skipping back over whitespace).
    private static func tokenEnd(before offset: Int, in bytes: [UInt8]) -> Int {
        var i = offset
        while i > 0, isSpace(bytes[i - 1]) { i -= 1 }
        return i
    }

    /// Whether some object's members are on lines of their own.
    private static func isMultiline(_ bytes: [UInt8]) -> Bool {
        var scanner = Scanner(bytes)
        var objects = [scanner.root()]
        while !objects.isEmpty {
            let object = objects.removeFirst()
            if let first = object.members.first, bytes[tokenEnd(before: first.keyStart, in: bytes)..<first.keyStart].contains(UInt8(ascii: "\n")) {
                return true
            }
            objects += object.members.compactMap { if case .object(let inner) = $0.value { inner } else { nil } }
        }
        return false
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\t")
    }

    static func kind(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

extension JSONTextEditor {
    /// Where each object and member of a valid JSON text is: byte offsets, nothing decoded but keys.
    /// The text was checked by `JSONParser` first, so this reads without checking.
    struct Scanner {
        let bytes: [UInt8]
        var i = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        struct Object {
            /// The offsets of its `{` and `}`.
            var open: Int
            var close: Int
            var members: [Member]
        }

        struct Member {
            /// The key as decoded, and where its quoted text is.
            var key: String
            var keyStart: Int
            var keyEnd: Int
            /// Where its value's text is.
            var valueStart: Int
            var valueEnd: Int
            var value: Node
        }

        enum Node {
            case object(Object)
            case other
        }

        /// The top-level object.
        mutating func root() -> Object {
            i = 0
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            skipSpace()
            guard case .object(let object) = node() else { preconditionFailure("the editor checked the top level is an object") }
            return object
        }

        /// The object holding the member at `path`, and the member's position in it (the last of its key).
        mutating func locate(_ path: [String]) -> (Object, Int)? {
            var object = root()
            for (depth, key) in path.enumerated() {
                guard let index = object.members.lastIndex(where: { $0.key == key }) else { return nil }
                if depth == path.count - 1 { return (object, index) }
                guard case .object(let inner) = object.members[index].value else { return nil }
                object = inner
            }
            return nil
        }

        /// A member's value, parsed.
        func value(_ member: Member) -> JSONValue {
            (try? JSONParser.parse(Array(bytes[member.valueStart..<member.valueEnd]))) ?? .null
        }

        private mutating func skipSpace() {
            while i < bytes.count, JSONTextEditor.isSpace(bytes[i]) { i += 1 }
        }

        /// The value at `i`, leaving `i` just after it.
        private mutating func node() -> Node {
            switch bytes[i] {
            case UInt8(ascii: "{"):
                let open = i
                i += 1
                var members: [Member] = []
                skipSpace()
                while bytes[i] != UInt8(ascii: "}") {
                    let keyStart = i
                    skipString()
                    let keyEnd = i
                    let key = (try? JSONParser.parse(Array(bytes[keyStart..<keyEnd])))?.stringValue ?? ""
                    skipSpace()
                    i += 1  // the colon
                    skipSpace()
                    let valueStart = i
                    let value = node()
                    members.append(Member(key: key, keyStart: keyStart, keyEnd: keyEnd, valueStart: valueStart, valueEnd: i, value: value))
                    skipSpace()
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        skipSpace()
                    }
                }
                i += 1
                return .object(Object(open: open, close: i - 1, members: members))
            case UInt8(ascii: "["):
                i += 1
                skipSpace()
                while bytes[i] != UInt8(ascii: "]") {
                    _ = node()
                    skipSpace()
                    if bytes[i] == UInt8(ascii: ",") {
                        i += 1
                        skipSpace()
                    }
                }
                i += 1
                return .other
            case UInt8(ascii: "\""):
                skipString()
                return .other
            default:
                // A number or a literal: up to the next delimiter.
                while i < bytes.count, !JSONTextEditor.isSpace(bytes[i]),
                      ![UInt8(ascii: ","), UInt8(ascii: "}"), UInt8(ascii: "]")].contains(bytes[i]) {
                    i += 1
                }
                return .other
            }
        }

        /// Moves past the string starting at `i`.
        private mutating func skipString() {
            i += 1
            while bytes[i] != UInt8(ascii: "\"") {
                i += bytes[i] == UInt8(ascii: "\\") ? 2 : 1
            }
            i += 1
        }
    }
}
