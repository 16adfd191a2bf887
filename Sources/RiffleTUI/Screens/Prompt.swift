import Foundation
import RiffleKit
import RiffleReading

/// A line typed at the bottom of the screen.
package struct Prompt: Sendable, Equatable {
    package enum Purpose: Sendable, Equatable {
        /// Words to search everything seen for (`S`).
        case search
        /// The argument of a feed that takes one (`reddit:` → `swift`), from the feed list.
        case argument(FeedEntry)
        /// A feed's new name (`e` in the feed list).
        case rename(FeedEntry)
        /// Whether to remove a feed (`d` in the feed list): y removes it, any other key keeps it.
        case remove(FeedEntry)
        /// Which rule to hide items like the selected one by (`x`): `1`, `2` pick one (y or Enter
        /// the first), any other key hides nothing.
        case hide([HideRule])
    }

    package var purpose: Purpose
    /// The line typed so far, with its cursor.
    package var field: TextField

    /// A prompt for `purpose` holding `text`, the cursor at its end.
    package init(_ purpose: Purpose, text: String = "") {
        self.purpose = purpose
        field = TextField(text)
    }

    /// The line typed so far.
    package var text: String { field.text }

    /// What stands before the text: "search: ", "reddit:".
    package var label: String {
        switch purpose {
        case .search: "search: "
        case .argument(let entry): "\(entry.name):"
        case .rename(let entry): "rename \(FeedsScreen.label(of: entry)) to: "
        case .remove(let entry):
            entry.origin == .recent ? "forget \(entry.name) (opened before)? y/n " : "remove \(entry.name) from feeds.json? y/n "
        case .hide(let rules) where rules.count == 1:
            "hide items with \(rules[0])? y/n "
        case .hide(let rules):
            "hide items like this: " + rules.enumerated().map { "\($0.offset + 1) \($0.element)" }.joined(separator: "  ") + "  (Esc: none) "
        }
    }
}


extension Prompt {
    /// Keys while the line is typed: text and readline's keys edit it (`TextField`), Enter runs it,
    /// Esc (or Backspace on an empty line) drops it.
    func press(_ key: Key, in state: inout AppState) -> [Effect] {
        if case .remove(let entry) = purpose {
            state.screens.pop()
            guard key == .character("y") || key == .character("Y") else {
                App.raise(&state, "kept \(entry.name)")
                return []
            }
            return [.removeFeed(entry)]
        }
        if case .hide(let rules) = purpose {
            state.screens.pop()
            let picked: HideRule? = switch key {
            case .character("y"), .character("Y"), .enter: rules.first
            case .character(let digit): digit.wholeNumberValue.flatMap { rules[safe: $0 - 1] }
            default: nil
            }
            guard let picked else {
                App.raise(&state, "nothing hidden", topic: .hidden)
                return []
            }
            return [.addHideRule(picked)]
        }
        var prompt = self
        if key == .backspace || key == .delete, prompt.text.isEmpty {
            state.screens.pop()
            return []
        }
        switch key {
        case .escape:
            state.screens.pop()
            return []
        case .enter:
            state.screens.pop()
            let text = prompt.text.trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return [] }
            switch prompt.purpose {
            case .search:
                // Said at once, rather than results that claim nothing seen matches.
                guard ReadingLog.hasWords(text) else {
                    App.raise(&state, ReadingLog.noWordsMessage(text))
                    return []
                }
                // Results stack on the screen they were asked from; a new search replaces the last.
                if case .search = state.screens.shown {
                    state.screens.shown = .search(SearchScreen(query: text))
                } else {
                    state.screens.push(.search(SearchScreen(query: text)))
                }
                return [.search(text, order: .newest)]
            case .argument(let entry):
                return [.openFeed("\(entry.name):\(text)")]
            case .rename(let entry):
                return [.renameFeed(entry, to: text)]
            case .remove, .hide:
                return []
            }
        default:
            guard prompt.field.edit(key) else { return [] }
        }
        state.screens.pop()
        state.screens.push(.overlay(.prompt(prompt)))
        return []
    }
}
