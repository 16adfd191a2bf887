import Foundation
import RiffleKit

/// The feed list (`F`, and at start when the feeds file has feeds): each feed with what is unseen in
/// it and when it was fetched. Enter opens one (asking first for the argument of one that takes it).
package struct FeedsScreen: Sendable, Equatable {
    /// The feeds; nil until they are listed.
    package var entries: [FeedEntry]?
    /// What is known of each, by name.
    package var summaries: [String: FeedSummary] = [:]
    /// How many items are saved (the last entry, `FeedEntry.saved`); nil until the log answered.
    package var savedCount: Int?
    package var selection = 0
    package var scroll = 0

    package init(entries: [FeedEntry]? = nil) { self.entries = entries }

    package var selectedEntry: FeedEntry? {
        guard let entries, entries.indices.contains(selection) else { return nil }
        return entries[selection]
    }

    /// Scrolls so the selection is in view.
    mutating func showSelection(size: Size) {
        let rows = max(1, App.listRows(for: size))
        if selection < scroll { scroll = selection }
        if selection >= scroll + rows { scroll = selection - rows + 1 }
        scroll = max(0, min(scroll, max(0, (entries?.count ?? 0) - rows)))
    }

    /// The feeds to list have come: shown at once, their counts as they come.
    static func receive(_ entries: [FeedEntry], in state: inout AppState) {
        guard var screen = state.screens.shown(as: FeedsScreen.self) else { return }
        let selected = screen.selectedEntry?.name
        // The saved items come last, after every feed.
        let entries = entries + [FeedEntry.saved]
        screen.entries = entries
        screen.selection = selected.flatMap { name in entries.firstIndex { $0.name == name } } ?? 0
        screen.showSelection(size: state.size)
        state.screens.shown = .feeds(screen)
    }

    /// What is known of one listed feed.
    static func receive(_ summary: FeedSummary, of name: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: FeedsScreen.self) else { return }
        screen.summaries[name] = summary
        state.screens.shown = .feeds(screen)
    }

    /// How many items are saved, wherever the feed list is in the stack (under the saved list, too).
    static func noteSaved(_ count: Int, in state: inout AppState) {
        guard let position = state.screens.entries.lastIndex(where: { if case .feeds = $0 { true } else { false } }),
              case .feeds(var screen) = state.screens.entries[position] else { return }
        screen.savedCount = count
        state.screens.replace(at: position, with: .feeds(screen))
    }
}

extension App {
    /// `F`: the feed list, over the feed being read (Esc comes back to it).
    static func showFeeds(_ state: inout AppState) -> [Effect] {
        state.screens = ScreenStack([.list, .feeds(FeedsScreen())])
        if state.list.filter?.isEditing == true { state.list.setFilter(nil) }
        return [.listFeeds]
    }
}

extension FeedsScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .feeds(let feeds) = screen else { return nil }
        self = feeds
    }

    var screen: Screen { .feeds(self) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: FeedsScreen.self) else { return nil }
        let count = screen.entries?.count ?? 0
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            let moved = command.moved(screen.selection, count: count, rows: max(1, App.listRows(for: state.size))) ?? screen.selection
            screen.selection = max(0, min(count - 1, moved))
            screen.showSelection(size: state.size)
            state.screens.shown = .feeds(screen)
            return []
        case .open:
            guard let entry = screen.selectedEntry else { return [] }
            if entry.origin == .saved {
                state.screens.push(.saved(SavedScreen()))
                return [.listSaved]
            }
            if entry.argument != nil {
                // reddit:SUBREDDIT: the argument is typed first.
                state.screens.push(.overlay(.prompt(Prompt(.argument(entry)))))
                return []
            }
            return [.openFeed(entry.name)]
        case .reload:
            return [.listFeeds]
        case .edit, .remove:
            guard let entry = screen.selectedEntry else { return [] }
            guard entry.origin == .feedsFile || entry.origin == .recent else {
                App.raise(&state, "\(entry.name) is built in: it cannot be \(command == .edit ? "renamed" : "removed")")
                return []
            }
            // A feed of the file starts from its name; one opened before (a URL) from nothing.
            let purpose: Prompt.Purpose = command == .edit ? .rename(entry) : .remove(entry)
            state.screens.push(.overlay(.prompt(Prompt(purpose, text: command == .edit && entry.origin == .feedsFile ? entry.name : ""))))
            return []
        default:
            return nil
        }
    }

    // MARK: View

    /// Each feed's name, what is new in it and when it was fetched, and what it is.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "feeds", hint: "e rename · d remove · " + (state.screens.canGoBack ? "q back" : "q quits"))
            .render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let rect = App.listArea(for: state.size)
        guard let entries else {
            Centered(text: "listing feeds…", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: rect)
            return
        }
        let nameWidth = min(max(8, entries.map { TextWidth.width(of: Self.label(of: $0)) }.max() ?? 0), max(8, area.width / 3))
        let countWidth = 14, ageWidth = 16
        for row in 0..<rect.height {
            let index = scroll + row
            guard entries.indices.contains(index) else { break }
            let entry = entries[index]
            let y = rect.y + row
            let selected = index == selection
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: selected ? Style(.selection) : .normal)
            let summary = entry.origin == .saved ? nil : summaries[entry.name]
            let unseen = summary?.unseen ?? 0
            let strong = selected ? Style(.selection, bold: true) : unseen > 0 ? Style(.normal, bold: true) : .normal
            let dim = selected ? Style(.selection, dim: true) : Style(.dim, dim: true)
            var x = rect.x + 1
            buffer.write(Self.label(of: entry), x: x, y: y, maxWidth: nameWidth, style: strong)
            x += nameWidth + 2
            let count = entry.origin == .saved ? savedCount.map { $0 == 0 ? "none" : "\($0) saved" } ?? ""
                : summary.map { $0.unseen.map { $0 == 0 ? "nothing new" : "\($0) new" } ?? "not fetched" } ?? ""
            buffer.write(count, x: x, y: y, maxWidth: max(0, rect.maxX - 1 - x), style: unseen > 0 ? strong : dim)
            x += countWidth
            let fetched = summary?.fetchedAt.map { "fetched " + Timestamp.age(of: $0, now: state.now) } ?? ""
            buffer.write(fetched, x: x, y: y, maxWidth: max(0, rect.maxX - 1 - x), style: dim)
            x += ageWidth + 1
            if x < rect.maxX - 1 { buffer.write(entry.description, x: x, y: y, maxWidth: rect.maxX - 1 - x, style: dim) }
        }
        let withNew = entries.filter { (summaries[$0.name]?.unseen ?? 0) > 0 }.count
        let feeds = entries.filter { $0.origin != .saved }.count
        let facts = [feeds == 1 ? "1 feed" : "\(feeds) feeds", withNew == 1 ? "1 with new items" : "\(withNew) with new items",
                     "S search · ? keys"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// How the feed list names a feed: `reddit:SUBREDDIT` for one that still needs its argument.
    static func label(of entry: FeedEntry) -> String {
        entry.argument.map { "\(entry.name):\($0)" } ?? entry.name
    }
}
