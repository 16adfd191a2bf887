/// A dotted path into a JSON value, the one way Riffle names a place in a document: a feed's `items`
/// and `fields`, `riffle dump --fields`, comment rules, cursors and envelopes all read through it.
///
/// Each component is an object key; on an array a whole number picks an element (`artists.0.name`)
/// and `*` takes every element (`title.*.plain_text`: the runs of a rich-text title). A key that
/// holds a dot or a backslash is written with a backslash before it (`@odata\.nextLink`).
///
/// ```swift
/// let path: JSONPath = "data.children"
/// let value: JSONValue = ["user": ["login": "octocat"], "tags": ["a", "b"]]
/// value.value(at: "user.login")   // "octocat"
/// value.value(at: "tags.1")       // "b"
/// print(JSONPath(components: ["@odata.nextLink"]))  // @odata\.nextLink
/// ```
public struct JSONPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral, ExpressibleByArrayLiteral {
    /// The keys (or element numbers, or `*`) from the outside in; empty for the value itself.
    public let components: [String]

    /// The component that takes every element of an array.
    public static let each = "*"

    /// The path written `dotted`: components split at each `.` not escaped by a backslash; empty
    /// components are dropped (`"a..b"` is `a.b`, `""` the value itself).
    public init(_ dotted: String) {
        var components: [String] = []
        var current = ""
        var escaped = false
        for character in dotted {
            if escaped {
                current.append(character)
                escaped = false
            } else if character == "\\" {
                escaped = true
            } else if character == "." {
                if !current.isEmpty { components.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if escaped { current.append("\\") }
        if !current.isEmpty { components.append(current) }
        self.components = components
    }

    /// The path with these components, taken as they are (a component may hold a dot).
    public init(components: [String]) {
        self.components = components
    }

    /// `"user.login"` as a path (see `init(_:)`).
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// `["meta", "status"]` as a path of those components.
    public init(arrayLiteral elements: String...) {
        self.init(components: elements)
    }

    /// Whether this is the value itself.
    public var isEmpty: Bool { components.isEmpty }

    /// This path followed by `component`.
    public func appending(_ component: String) -> JSONPath {
        JSONPath(components: components + [component])
    }

    /// The dotted form, dots and backslashes inside keys escaped: `JSONPath(description)` is this path.
    public var description: String {
        components.map { component in
            guard component.contains(where: { $0 == "." || $0 == "\\" }) else { return component }
            var escaped = ""
            for character in component {
                if character == "." || character == "\\" { escaped.append("\\") }
                escaped.append(character)
            }
            return escaped
        }.joined(separator: ".")
    }

    /// The element number a component names on an array: a whole number written in decimal digits.
    package static func index(_ component: String) -> Int? {
        guard !component.isEmpty, component.utf8.count <= 18, component.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int(component)
    }
}

extension JSONValue {
    /// The value at `path`, or nil when there is none there. Through `*` the answer is an array of
    /// what each element holds at the rest of the path (elements without it left out).
    public func value(at path: JSONPath) -> JSONValue? {
        value(at: path.components[...])
    }

    private func value(at rest: ArraySlice<String>) -> JSONValue? {
        guard let key = rest.first else { return self }
        switch self {
        case .object(let object):
            return object[key]?.value(at: rest.dropFirst())
        case .array(let elements):
            if key == JSONPath.each { return .array(elements.compactMap { $0.value(at: rest.dropFirst()) }) }
            guard let n = JSONPath.index(key), elements.indices.contains(n) else { return nil }
            return elements[n].value(at: rest.dropFirst())
        default:
            return nil
        }
    }
}

extension TapeReader {
    /// The tape index of the value at `path` from `i`, or nil. Through `*` the first element that
    /// has the rest of the path answers.
    package func value(_ i: Int, at path: JSONPath) -> Int? {
        var found: Int?
        forEachValue(i, at: path.components[...]) { v in
            if found == nil { found = v }
            return found == nil
        }
        return found
    }

    /// Calls `body` with each value at `path` from `i`, in document order (several only through `*`).
    package func forEachValue(_ i: Int, at path: JSONPath, _ body: (Int) -> Void) {
        forEachValue(i, at: path.components[...]) { body($0); return true }
    }

    /// Visits the values at `rest` from `i` while `body` returns true; returns false once it stopped.
    @discardableResult
    private func forEachValue(_ i: Int, at rest: ArraySlice<String>, _ body: (Int) -> Bool) -> Bool {
        guard let key = rest.first else { return body(i) }
        switch kind(i) {
        case .object:
            guard let next = member(of: i, named: key) else { return true }
            return forEachValue(next, at: rest.dropFirst(), body)
        case .array:
            if key == JSONPath.each {
                var going = true
                forEachElement(of: i) { e in if going { going = forEachValue(e, at: rest.dropFirst(), body) } }
                return going
            }
            guard let n = JSONPath.index(key) else { return true }
            var element: Int?
            var seen = 0
            forEachElement(of: i) { e in
                if seen == n { element = e }
                seen &+= 1
            }
            guard let element else { return true }
            return forEachValue(element, at: rest.dropFirst(), body)
        default:
            return true
        }
    }
}
