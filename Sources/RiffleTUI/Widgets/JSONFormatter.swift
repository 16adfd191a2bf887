import RiffleKit

/// Writes a `JSONValue` back as indented JSON text (two spaces per level, keys in document order).
package enum JSONFormatter {
    /// The pretty-printed text of `value`.
    package static func pretty(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out
    }

    static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let pad = String(repeating: " ", count: indent + 2)
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): out += quoted(s)
        case .array(let elements):
            guard !elements.isEmpty else { out += "[]"; return }
            out += "[\n"
            for (i, element) in elements.enumerated() {
                out += pad
                write(element, indent: indent + 2, into: &out)
                out += i == elements.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .object(let object):
            guard object.count > 0 else { out += "{}"; return }
            out += "{\n"
            for (i, member) in object.members.enumerated() {
                out += pad + quoted(member.key) + ": "
                write(member.value, indent: indent + 2, into: &out)
                out += i == object.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        }
    }

    /// A JSON string literal; control characters are escaped, so none reach the screen raw.
    static func quoted(_ text: String) -> String {
        var out = ""
        JSONWriter.writeString(text, into: &out)
        return out
    }
}
