extension Feed {
    /// The feed's headers with `${NAME}` replaced by the environment's values; done per request so the
    /// values never reach a file.
    ///
    /// `${NAME}` must be set; `${NAME:-}` may be unset, in which case the whole header is left out (so a
    /// preset can send a token only when the user has one).
    /// - Throws: `RiffleError.missingEnvironment` naming the variable and the header, never a value.
    public func expandedHeaders(environment: [String: String]) throws(RiffleError) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            if let expanded = try Self.expand(value, header: name, environment: environment) { result[name] = expanded }
        }
        return result
    }

    /// The environment variables `value` names, in order (`Bearer ${TOKEN}` → `["TOKEN"]`).
    public static func variables(in value: String) -> [(name: String, optional: Bool)] {
        var found: [(String, Bool)] = []
        var rest = Substring(value)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            let inside = rest[start.upperBound..<end]
            found.append(inside.hasSuffix(":-") ? (String(inside.dropLast(2)), true) : (String(inside), false))
            rest = rest[rest.index(after: end)...]
        }
        return found
    }

    /// `value` expanded, or nil when it names an optional variable that is unset.
    static func expand(_ value: String, header: String, environment: [String: String]) throws(RiffleError) -> String? {
        var result = value
        for (name, optional) in variables(in: value) {
            let reference = optional ? "${\(name):-}" : "${\(name)}"
            guard let replacement = environment[name], !replacement.isEmpty else {
                if optional { return nil }
                throw .missingEnvironment(variable: name, header: header)
            }
            result = result.replacingOccurrences(of: reference, with: replacement)
        }
        return result
    }
}
