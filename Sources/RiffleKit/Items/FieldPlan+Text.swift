import Foundation

extension FieldPlan {
    /// How many runners-up are told per part.
    package static let runnersUp = 2

    /// Where `part` comes from and why, in the words `riffle inspect` prints and the browser's field
    /// picker shows: first the path read and its evidence (or that the feed's `fields` named it, or
    /// that no path looks like one), then up to `runnersUp` paths that came close, each
    /// "or `path` (score): evidence".
    package func explanation(of part: Part) -> [String] {
        let choice = self[part]
        guard let path = choice.path else { return ["none: no path looks like one"] }
        var shown = choice.candidates.prefix(Self.runnersUp + 1)[...]
        var lines: [String] = []
        if choice.configured {
            lines.append("`\(path)`: the feed's `fields`")
        } else if let chosen = shown.first {
            lines.append("`\(path)` (\(Self.number(chosen.score))): " + chosen.reasons.joined(separator: "; "))
            shown = shown.dropFirst()
        }
        for candidate in shown {
            lines.append("or `\(candidate.path)` (\(Self.number(candidate.score))): " + candidate.reasons.joined(separator: "; "))
        }
        return lines
    }

    /// A score as told: one decimal.
    package static func number(_ value: Double) -> String { String(format: "%.1f", value) }
}
