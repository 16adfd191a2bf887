/// A parsed JSON value.
///
/// Objects keep their keys in document order (a feed's fields are shown in the order the server sent
/// them) and numbers keep their exact text, so large integer ids survive untouched.
public enum JSONValue: Sendable, Equatable {
    /// JSON `null` (written `.null`: `JSONValue` has no `nil` literal).
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// The number's text exactly as it appeared in the document, e.g. `"42"`, `"-1.5e3"`.
    case number(String)
    /// A string, escapes decoded.
    case string(String)
    /// An array, in order.
    case array([JSONValue])
    /// An object, its members in document order.
    case object(JSONObject)
}

/// A JSON object: key-value pairs in document order.
public struct JSONObject: Sendable, Equatable {
    /// The members in document order. A duplicated key appears twice; lookups find the last one.
    public var members: [(key: String, value: JSONValue)]

    /// An object with `members`, in that order.
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

    /// The keys in document order (a duplicated key appears twice).
    public var keys: [String] { members.map(\.key) }
    /// The number of members.
    public var count: Int { members.count }

    /// Whether both objects have the same members in the same order.
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.count == rhs.members.count
            && zip(lhs.members, rhs.members).allSatisfy { $0.key == $1.key && $0.value == $1.value }
    }
}

extension JSONValue {
    /// The object, when this is one.
    public var objectValue: JSONObject? { if case .object(let o) = self { o } else { nil } }
    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? { if case .array(let a) = self { a } else { nil } }
    /// The text, when this is a string.
    public var stringValue: String? { if case .string(let s) = self { s } else { nil } }
    /// The number as a `Double`, when this is a number.
    public var doubleValue: Double? { if case .number(let n) = self { Double(n) } else { nil } }
    /// The flag, when this is a boolean.
    public var boolValue: Bool? { if case .bool(let b) = self { b } else { nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { true } else { false } }

    /// The value at `key` when this is an object.
    public subscript(key: String) -> JSONValue? { objectValue?[key] }

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

/// A `JSONValue` inside a `Decodable` type keeps whatever JSON sits there, e.g. an API's free-form
/// `metadata` member. Through `JSONDecoder` numbers are read as `Int64`, `UInt64` or `Double` and
/// written back as text, and object keys come in the decoder's order (it keeps no document order);
/// `Endpoint<JSONValue>` itself reads the document directly and keeps both exactly.
///
/// ```swift
/// struct Event: Decodable, Sendable { var kind: String; var payload: JSONValue }
///
/// let events = Endpoint<[Event]>(.get, "/events")
/// ```
extension JSONValue: Decodable {
    /// Reads whichever JSON value the decoder holds.
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let flag = try? single.decode(Bool.self) { self = .bool(flag); return }
            if let integer = try? single.decode(Int64.self) { self = .number(String(integer)); return }
            if let integer = try? single.decode(UInt64.self) { self = .number(String(integer)); return }
            if let number = try? single.decode(Double.self) { self = .number(String(number)); return }
            if let text = try? single.decode(String.self) { self = .string(text); return }
        }
        if var items = try? decoder.unkeyedContainer() {
            var array: [JSONValue] = []
            while !items.isAtEnd { array.append(try items.decode(JSONValue.self)) }
            self = .array(array)
            return
        }
        let members = try decoder.container(keyedBy: MemberKey.self)
        self = .object(JSONObject(try members.allKeys.map { (key: $0.stringValue, value: try members.decode(JSONValue.self, forKey: $0)) }))
    }

    /// Any object key.
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
