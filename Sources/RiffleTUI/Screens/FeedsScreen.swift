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
    /// The feeds a refresh (`R`, `r`) still waits for, and how many it asked for.
    package var refreshing: Set<String> = []
    package var refreshTotal = 0
    /// What the refresh found so far: new items, and the feeds that failed.
    package var refreshArrived = 0
    package var refreshFailed = 0
    package var selection = 0
    package var scroll = 0
    /// The widest label, measured once when the feeds are listed (not on every frame).
    private(set) var labelWidth = 0
    /// How many listed feeds have new items, kept as their summaries come (not counted on every frame).
    private(set) var withNew = 0
    /// The listed feeds' names, for a summary to find whether it counts.
    private var names: Set<String> = []

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
        screen.names = Set(entries.map(\.name))
        screen.labelWidth = entries.lazy.map { TextWidth.width(of: Self.label(of: $0)) }.max() ?? 0
        screen.withNew = entries.lazy.filter { (screen.summaries[$0.name]?.unseen ?? 0) > 0 }.count
        screen.selection = selected.flatMap { name in entries.firstIndex { $0.name == name } } ?? 0
        screen.showSelection(size: state.size)
        state.screens.shown = .feeds(screen)
    }

    /// What is known of one listed feed.
    static func receive(_ summary: FeedSummary, of name: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: FeedsScreen.self) else { return }
        // The stack's copy goes first, so the summaries are changed in place rather than copied
        // whole for each feed (10,000 feeds: 50 million entries copied).
        state.screens.shown = .list
        screen.set(summary, of: name)
        state.screens.shown = .feeds(screen)
    }

    /// Keeps `summary` for `name`, and the count of feeds with news with it.
    private mutating func set(_ summary: FeedSummary, of name: String) {
        let listed = names.contains(name)
        if listed, (summaries[name]?.unseen ?? 0) > 0 { withNew -= 1 }
        if listed, (summary.unseen ?? 0) > 0 { withNew += 1 }
        summaries[name] = summary
    }

    /// A feed of a refresh came back: its counts shown, the progress line moved on, and a toast
    /// when it was the last.
    static func refreshed(_ summary: FeedSummary, of name: String, in state: inout AppState) {
        guard var screen = state.screens.shown(as: FeedsScreen.self), screen.refreshing.remove(name) != nil else { return }
        // The unseen count and the fetch time may be known from the disk already; keep them when the refresh could not tell.
        var merged = summary
        if summary.failure != nil, let known = screen.summaries[name] {
            merged.unseen = known.unseen
            merged.fetchedAt = known.fetchedAt
        }
        screen.set(merged, of: name)
        screen.refreshArrived += summary.arrived ?? 0
        if summary.failure != nil { screen.refreshFailed += 1 }
        state.screens.shown = .feeds(screen)
        guard screen.refreshing.isEmpty else { return }
        let feeds = screen.refreshTotal == 1 ? "1 feed" : "\(screen.refreshTotal) feeds"
        let new = screen.refreshArrived == 0 ? "nothing new" : screen.refreshArrived == 1 ? "1 new item" : "\(screen.refreshArrived) new items"
        App.raise(&state, "refreshed \(feeds): \(new)" + (screen.refreshFailed > 0 ? " · \(screen.refreshFailed) failed" : ""))
    }

    /// `R` (every feed that can be) or `r` (the selected one): their first pages asked for again.
    static func refresh(_ entries: [FeedEntry], in state: inout AppState) -> [Effect] {
        guard var screen = state.screens.shown(as: FeedsScreen.self) else { return [] }
        let asked = entries.filter { !screen.refreshing.contains($0.name) }
        guard !asked.isEmpty else { return [] }
        if screen.refreshing.isEmpty {
            screen.refreshTotal = 0
            screen.refreshArrived = 0
            screen.refreshFailed = 0
        }
        screen.refreshing.formUnion(asked.map(\.name))
        screen.refreshTotal += asked.count
        state.screens.shown = .feeds(screen)
        return [.refreshFeeds(asked)]
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
        case .reloadAll:
            let entries = (screen.entries ?? []).filter { $0.isRefreshable(screen.summaries[$0.name]) }
            guard !entries.isEmpty else {
                App.raise(&state, "no feed to refresh: open one first")
                return []
            }
            return refresh(entries, in: &state)
        case .reload:
            guard let entry = screen.selectedEntry else { return [] }
            if entry.origin == .saved { return [.listSaved] }
            guard entry.isRefreshable(screen.summaries[entry.name]) || entry.origin == .preset && entry.argument == nil else {
                App.raise(&state, entry.argument != nil ? "\(entry.name) needs its \(entry.argument ?? ""): open it to read it" : "\(entry.name) is not refreshed from here")
                return []
            }
            return refresh([entry], in: &state)
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
        let nameWidth = min(max(8, labelWidth), max(8, area.width / 3))
        // Each column keeps two spaces before the next: "refresh failed" and "1234 new (+1234)" once ran
        // into "fetched 10m ago".
        let countWidth = 18, ageWidth = 18
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
            var count = entry.origin == .saved ? savedCount.map { $0 == 0 ? "none" : "\($0) saved" } ?? ""
                : summary.map { $0.unseen.map { $0 == 0 ? "nothing new" : "\($0) new" } ?? "not fetched" } ?? ""
            if refreshing.contains(entry.name) {
                count = "\(Spinner(frame: state.spinnerFrame).symbol) " + count
            } else if let arrived = summary?.arrived, arrived > 0 {
                count += " (+\(arrived))"
            } else if summary?.failure != nil {
                count = "refresh failed"
            }
            buffer.write(count, x: x, y: y, maxWidth: max(0, min(countWidth - 2, rect.maxX - 1 - x)), style: unseen > 0 ? strong : dim)
            x += countWidth
            let fetched = summary?.fetchedAt.map { "fetched " + Timestamp.age(of: $0, now: state.now) } ?? ""
            buffer.write(fetched, x: x, y: y, maxWidth: max(0, min(ageWidth - 2, rect.maxX - 1 - x)), style: dim)
            x += ageWidth
            let about = summary?.failure.map(Sanitizer.clean) ?? entry.description
            if x < rect.maxX - 1 { buffer.write(about, x: x, y: y, maxWidth: rect.maxX - 1 - x, style: dim) }
        }
        // The saved items' entry, last, is not a feed.
        let feeds = entries.count - (entries.last?.origin == .saved ? 1 : 0)
        let progress = "refreshing \(refreshTotal - refreshing.count)/\(refreshTotal)…"
        let facts = [refreshing.isEmpty ? feeds == 1 ? "1 feed" : "\(feeds) feeds" : progress, withNew == 1 ? "1 with new items" : "\(withNew) with new items",
                     "R refresh · S search · ? keys"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// How the feed list names a feed: `reddit:SUBREDDIT` for one that still needs its argument.
    static func label(of entry: FeedEntry) -> String {
        entry.argument.map { "\(entry.name):\($0)" } ?? entry.name
    }
}
