import RiffleJSON

/// The JSON shape a payload must have. A mismatch is `RiffleError.validation` naming the path
/// (`$.items[3].title`), the expected type and the actual one; such an answer is never cached.
///
/// ```swift
/// let shape: JSONShape = .object([
///     "items": .array(.object(["id": .number, "title": .string, "url": .optional(.string)])),
///     "next": .nullable(.string),
/// ])
/// ```
///
/// Keys not declared are allowed. `null` is accepted only where `.nullable` (or `.any`) says so.
public indirect enum JSONShape: Sendable, Equatable {
    /// Anything, including null.
    case any
    /// A string.
    case string
    /// A number.
    case number
    /// `true` or `false`.
    case bool
    /// An array whose every element has this shape.
    case array(JSONShape)
    /// An object with these keys; each must be present unless its shape is `.optional`.
    case object([String: JSONShape])
    /// This shape or null.
    case nullable(JSONShape)
    /// As an object member: the key may be absent; when present it must have this shape.
    case optional(JSONShape)

    /// Checks `value` against this shape.
    /// - Parameters:
    ///   - value: the JSON to check.
    ///   - path: the path of `value` in the document, used in the error.
    public func validate(_ value: JSONValue, path: String = "$") throws(RiffleError) {
        switch (self, value) {
        case (.any, _), (.string, .string), (.number, .number), (.bool, .bool): return
        case (.nullable, .null): return
        case (.nullable(let inner), _), (.optional(let inner), _): try inner.validate(value, path: path)
        case (.array(let element), .array(let items)):
            for (index, item) in items.enumerated() { try element.validate(item, path: "\(path)[\(index)]") }
        case (.object(let members), .object(let object)):
            // Sorted so the first error reported is the same on every run.
            for key in members.keys.sorted() {
                let shape = members[key]!
                let memberPath = Self.isPlainKey(key) ? "\(path).\(key)" : "\(path)[\"\(key)\"]"
                guard let member = object[key] else {
                    if case .optional = shape { continue }
                    throw .validation(path: memberPath, expected: shape.name, actual: "missing")
                }
                try shape.validate(member, path: memberPath)
            }
        default: throw .validation(path: path, expected: name, actual: Self.name(of: value))
        }
    }

    /// The shape's name in error messages, e.g. `array of object`.
    public var name: String {
        switch self {
        case .any: "any value"
        case .string: "string"
        case .number: "number"
        case .bool: "boolean"
        case .array(let element): "array of \(element.name)"
        case .object: "object"
        case .nullable(let inner): "\(inner.name) or null"
        case .optional(let inner): inner.name
        }
    }

    static func name(of value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    private static func isPlainKey(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}
