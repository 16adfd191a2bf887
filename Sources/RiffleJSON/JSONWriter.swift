import Foundation

/// Writes a `JSONValue` as compact JSON text on one line; numbers keep their original text and
/// object keys their order.
package enum JSONWriter {
    /// The value as UTF-8 JSON bytes.
    package static func data(_ value: JSONValue) -> Data {
        var out = ""
        write(value, into: &out)
        return Data(out.utf8)
    }

    /// Appends the value's JSON text to `out`.
    package static func write(_ value: JSONValue, into out: inout String) {
        switch value {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let n): out += n
        case .string(let s): writeString(s, into: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                write(item, into: &out)
            }
            out += "]"
        case .object(let object):
            out += "{"
            for (i, member) in object.members.enumerated() {
                if i > 0 { out += "," }
                writeString(member.key, into: &out)
                out += ":"
                write(member.value, into: &out)
            }
            out += "}"
        }
    }

    /// Appends `s` as a JSON string literal: quotes, backslashes and every control character
    /// escaped (and U+2028/2029, which some JavaScript readers choke on), so the text is one line.
    package static func writeString(_ s: String, into out: inout String) {
        var text = s
        // Byte-wise: per-scalar appends made `riffle dump` of long bodies take 70 µs an item.
        text.withUTF8 { bytes in
            let plain = !bytes.contains { $0 < 0x20 || $0 == 0x22 || $0 == 0x5C || $0 == 0x7F || $0 == 0xE2 }
            if plain {
                out += "\""
                out += s
                out += "\""
                return
            }
            var escaped: [UInt8] = [0x22]
            escaped.reserveCapacity(bytes.count + 16)
            var i = 0
            while i < bytes.count {
                let b = bytes[i]
                switch b {
                case 0x22: escaped += [0x5C, 0x22]
                case 0x5C: escaped += [0x5C, 0x5C]
                case 0x0A: escaped += [0x5C, 0x6E]
                case 0x0D: escaped += [0x5C, 0x72]
                case 0x09: escaped += [0x5C, 0x74]
                case 0xE2 where i + 2 < bytes.count && bytes[i + 1] == 0x80 && (bytes[i + 2] == 0xA8 || bytes[i + 2] == 0xA9):
                    escaped += Array("\\u202\(bytes[i + 2] == 0xA8 ? "8" : "9")".utf8)
                    i += 2
                case _ where b < 0x20 || b == 0x7F:
                    let hex = String(b, radix: 16)
                    escaped += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
                default: escaped.append(b)
                }
                i += 1
            }
            escaped.append(0x22)
            out += String(decoding: escaped, as: UTF8.self)
        }
    }
}

/// Literals, so bodies and envelope values read naturally: `.json(["name": "Ada", "admin": false])`.
///
/// There is no `nil` literal: a JSON null is written `.null` (`["deleted_at": .null]`), so `nil` only
/// ever means "no value", as in `object["key"] == nil` for an absent member.
extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    /// A string: `"ok"`.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A number: `42`.
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    /// A number: `1.5`.
    public init(floatLiteral value: Double) { self = .number(String(value)) }
    /// A boolean: `true`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An array: `[1, "two", .null]`.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object, members in the order written: `["name": "Ada", "admin": false]`.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(JSONObject(elements.map { (key: $0.0, value: $0.1) }))
    }
}
