/// A parsed JSON value.
///
/// Objects keep their keys in document order (a feed's fields are shown in the order the server sent
/// them) and numbers keep their exact text, so large integer ids survive untouched.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number's text exactly as it appeared in the document, e.g. `"42"`, `"-1.5e3"`.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object(JSONObject)
}

/// A JSON object: key-value pairs in document order.
public struct JSONObject: Sendable, Equatable {
    /// The members in document order. A duplicated key appears twice; lookups find the last one.
    public var members: [(key: String, value: JSONValue)]

    public init(_ members: [(key: String, value: JSONValue)] = []) { self.members = members }

    /// The value for `key`, or nil when the object has no such key.
    public subscript(key: String) -> JSONValue? {
        var i = members.endIndex
        while i > members.startIndex {
            i -= 1
            if members[i].key == key { return members[i].value }
        }
        return nil
    }

    public var keys: [String] { members.map(\.key) }
    public var count: Int { members.count }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue {
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    public var doubleValue: Double? { if case .number(let n) = self { Double(n) } else { nil } }
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The value at `key` when this is an object.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

    /// The value at a dotted path such as `"data.children"` or `"user.login"`.
    public func value(atPath path: String) -> JSONValue? {
        value(at: path.split(separator: ".", omittingEmptySubsequences: true).map(String.init))
    }

    /// The value at a path already split into keys, e.g. `["user", "login"]`; an empty path is `self`.
    ///
    /// Prefer this in loops: `value(atPath:)` splits its string on every call.
    public func value(at path: [String]) -> JSONValue? {
        var current = self
        for key in path {
            guard case .object(let object) = current, let next = object[key] else { return nil }
            current = next
        }
        return current
    }

    /// A short text for display: strings as they are, numbers as written, booleans as true/false.
    public var scalarText: String? {
        switch self {
        case .string(let s): s
        case .number(let n): n
        case .bool(let b): b ? "true" : "false"
        default: nil
        }
    }
}
