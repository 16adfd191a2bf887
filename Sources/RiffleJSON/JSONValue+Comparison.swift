/// Comparisons with plain Swift values, so checks read as they would on the JSON:
/// `reply.value["code"] == 200`, `reply.value["status"] == "ok"`, `reply.value["count"] == expected`.
///
/// ```swift
/// let answer: JSONValue = ["code": 200.0, "msg": "ok", "count": 3]
/// let expected = 3
/// assert(answer["code"] == 200)         // numbers by value: 200, 200.0 and 2e2 are equal
/// assert(answer["msg"] == "ok")
/// assert(answer["count"] == expected)   // variables too, not only literals
/// assert(answer["missing"] != 0)        // an absent member equals no number
/// ```
///
/// A number never equals a string (`"200"` is text in JSON); whole values still compare with `==` on
/// `JSONValue`, where numbers compare by their text.
extension JSONValue {
    /// Whether this is a number equal to `number` (integers exactly, others as `Double`).
    public func isNumber(_ number: Int) -> Bool {
        guard case .number(let text) = self else { return false }
        if let exact = Int(text) { return exact == number }
        return Double(text).map { $0 == Double(number) } ?? false
    }

    /// Whether this is a number equal to `number`.
    public func isNumber(_ number: Double) -> Bool {
        guard case .number(let text) = self else { return false }
        return Double(text) == number
    }
}

/// Whether `value` is a number equal to `number`; nil (an absent member) equals no number.
public func == (value: JSONValue?, number: Int) -> Bool { value?.isNumber(number) ?? false }
/// Whether `value` is absent or not a number equal to `number`.
public func != (value: JSONValue?, number: Int) -> Bool { !(value == number) }
/// Whether `value` is a number equal to `number`; nil (an absent member) equals no number.
public func == (value: JSONValue?, number: Double) -> Bool { value?.isNumber(number) ?? false }
/// Whether `value` is absent or not a number equal to `number`.
public func != (value: JSONValue?, number: Double) -> Bool { !(value == number) }
/// Whether `value` is a string equal to `text`.
public func == (value: JSONValue?, text: String) -> Bool { value?.stringValue == text }
/// Whether `value` is absent or not a string equal to `text`.
public func != (value: JSONValue?, text: String) -> Bool { !(value == text) }
/// Whether `value` is a boolean equal to `flag`.
public func == (value: JSONValue?, flag: Bool) -> Bool { value?.boolValue == flag }
/// Whether `value` is absent or not a boolean equal to `flag`.
public func != (value: JSONValue?, flag: Bool) -> Bool { !(value == flag) }
