import Foundation
import RiffleJSON

/// Foundation's JSONSerialization as a reference parser, and a comparison of its output with ours.
package enum JSONOracle {
    /// The oracle's value, or nil when it rejects the bytes.
    package static func parse(_ bytes: [UInt8]) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// Nil when `ours` and `theirs` hold the same JSON, else the path of the first difference.
    /// Numbers compare by `Double` value, strings by their exact UTF-8 bytes (Swift's `==` would
    /// equate canonically equivalent strings), object members as sets, arrays in order.
    package static func difference(_ ours: JSONValue, _ theirs: Any, path: String = "$") -> String? {
        switch ours {
        case .null:
            return theirs is NSNull ? nil : "\(path): null vs \(theirs)"
        case .bool(let b):
            // Compare through NSNumber's type so a 0/1 number never passes for a Boolean.
            guard let n = theirs as? NSNumber, isBoolean(n) else { return "\(path): \(b) vs \(theirs)" }
            return n.boolValue == b ? nil : "\(path): \(b) vs \(theirs)"
        case .number(let text):
            guard let n = theirs as? NSNumber, !isBoolean(n) else { return "\(path): number \(text) vs \(theirs)" }
            let ourDouble = Double(text)!
            // Foundation's conversion is not correctly rounded (e.g. it reads -27063.90764214157 as
            // -27063.907642141574), while `Double(String)` is: allow a few ulps.
            let close = ourDouble == n.doubleValue || abs(ourDouble - n.doubleValue) <= 8 * ourDouble.ulp
            return close ? nil : "\(path): \(text) (\(ourDouble)) vs \(n.doubleValue)"
        case .string(let s):
            guard let t = theirs as? String else { return "\(path): string vs \(theirs)" }
            return Array(s.utf8) == Array(t.utf8) ? nil : "\(path): \(s.debugDescription) vs \(t.debugDescription)"
        case .array(let elements):
            guard let t = theirs as? [Any], t.count == elements.count else { return "\(path): array vs \(theirs)" }
            for (i, (a, b)) in zip(elements, t).enumerated() {
                if let d = difference(a, b, path: "\(path)[\(i)]") { return d }
            }
            return nil
        case .object(let object):
            guard let t = theirs as? [String: Any] else { return "\(path): object vs \(theirs)" }
            // Keys are compared as exact bytes too; NSDictionary may merge equivalent keys.
            let ourKeys = Set(object.keys.map { Array($0.utf8) })
            guard ourKeys.count == t.count else { return "\(path): \(ourKeys.count) keys vs \(t.count)" }
            for (key, value) in t {
                guard let mine = object[key] else { return "\(path): missing key \(key.debugDescription)" }
                if let d = difference(mine, value, path: "\(path).\(key)") { return d }
            }
            return nil
        }
    }

    /// Whether a Foundation number is a Boolean: JSONSerialization returns `true`/`false` as
    /// `__NSCFBoolean`, whose type code is "c"; JSON numbers come back as "i", "q" or "d".
    private static func isBoolean(_ n: NSNumber) -> Bool {
        String(cString: n.objCType) == "c"
    }
}

/// A tiny deterministic PRNG (SplitMix64) so generated documents are the same on every run.
package struct SeededGenerator: RandomNumberGenerator {
    package var state: UInt64
    package init(seed: UInt64) { state = seed }
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Random single-byte damage to a document, for the hostile-input tests.
package enum JSONMutation {
    /// JSON's own characters, a control character, and bytes that are never or only sometimes valid UTF-8.
    package static let hostileAlphabet = Array("{}[],:\" \\/0123456789-+.eEtrufalsnbu\u{1}".utf8)
        + [0x00, 0x80, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xFF]

    /// `bytes` with one byte removed, inserted or replaced (from `alphabet`) at a random place.
    package static func edit(_ bytes: [UInt8], alphabet: [UInt8] = hostileAlphabet, using rng: inout SeededGenerator) -> [UInt8] {
        var bytes = bytes
        let at = Int.random(in: 0..<bytes.count, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: bytes.remove(at: at)
        case 1: bytes.insert(alphabet.randomElement(using: &rng)!, at: at)
        default: bytes[at] = alphabet.randomElement(using: &rng)!
        }
        return bytes
    }
}

/// Writes random valid JSON documents: nested containers, unicode, every escape, surrogate pairs,
/// numbers of every form, random whitespace.
package struct JSONDocumentGenerator {
    package var rng: SeededGenerator

    package init(seed: UInt64) { rng = SeededGenerator(seed: seed) }

    package mutating func document(maxDepth: Int = 5) -> String {
        ws() + value(depth: maxDepth) + ws()
    }

    package mutating func value(depth: Int) -> String {
        let pick = Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &rng)
        switch pick {
        case 0: return "null"
        case 1: return Bool.random(using: &rng) ? "true" : "false"
        case 2, 3: return number()
        case 4, 5: return string()
        case 6, 7:
            let n = Int.random(in: 0...5, using: &rng)
            var keys = Set<String>()
            var members: [String] = []
            for _ in 0..<n {
                let key = string()
                // Duplicate keys are tested on their own: the oracle keeps an unspecified one.
                guard keys.insert(key).inserted else { continue }
                members.append(ws() + key + ws() + ":" + ws() + value(depth: depth - 1) + ws())
            }
            return "{" + (members.isEmpty ? ws() : members.joined(separator: ",")) + "}"
        default:
            let n = Int.random(in: 0...5, using: &rng)
            let elements = (0..<n).map { _ in ws() + value(depth: depth - 1) + ws() }
            return "[" + (elements.isEmpty ? ws() : elements.joined(separator: ",")) + "]"
        }
    }

    package mutating func ws() -> String {
        let choices = ["", "", "", " ", "\n", "\t", "\r\n", "  \n\t "]
        return choices[Int.random(in: 0..<choices.count, using: &rng)]
    }

    package mutating func number() -> String {
        var s = Bool.random(using: &rng) ? "-" : ""
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: s += "0"
        case 1: s += String(Int.random(in: 1...9, using: &rng))
        case 2: s += String(UInt64.random(in: 1...UInt64.max, using: &rng))
        case 3: s += String(Int.random(in: 1...99_999, using: &rng)) + "." + digits()
        default: s += String(Int.random(in: 0...9, using: &rng))
        }
        if Int.random(in: 0..<4, using: &rng) == 0 {
            s += Bool.random(using: &rng) ? "e" : "E"
            s += ["", "+", "-"][Int.random(in: 0..<3, using: &rng)]
            s += String(Int.random(in: 0...280, using: &rng))  // stays finite: the oracle rejects infinities
        }
        return s
    }

    package mutating func digits() -> String {
        String((0..<Int.random(in: 1...12, using: &rng)).map { _ in Character(String(Int.random(in: 0...9, using: &rng))) })
    }

    package mutating func string() -> String {
        let pieces = [
            "a", "Z", "key", " ", "日本語", "中文", "한국어", "😀", "👩‍💻", "🇯🇵", "é", "e\u{301}", "\u{7F}", "\u{FFFF}",
            "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u0000", "\\u001f", "\\u00e9", "\\u2014",
            "\\uFFFF", "\\uD83D\\uDE00", "\\ud834\\udd1e", "\\uDBFF\\uDFFF", "\\u0041",
        ]
        let n = Int.random(in: 0...6, using: &rng)
        return "\"" + (0..<n).map { _ in pieces[Int.random(in: 0..<pieces.count, using: &rng)] }.joined() + "\""
    }
}
