import Foundation
import RiffleKit

extension App {
    /// The commands on an item, written once for every screen that has one selected (the list, an
    /// item, its comments, search results): nil for any other command.
    ///
    /// Opening an item of the open feed (Enter, `o`, `c`) is seeing it. Seen marks, comments and the
    /// discussion page go through the open feed, so for an item of another feed (a search result)
    /// they do nothing.
    static func itemCommand(_ command: Command, on selection: ItemSelection, _ state: inout AppState) -> [Effect]? {
        let item = selection.item
        if item != nil, !selection.isInOpenFeed, let what = throughTheFeed[command] {
            // Said rather than nothing: the key does something once the item is in its feed.
            raise(&state, "\(what) go through the item's feed: open it there (a saved item: c, a search result: Enter)")
            return []
        }
        switch command {
        case .open:
            guard let item else { return [] }
            state.screens.push(.item(ItemScreen(item: item, isInOpenFeed: selection.isInOpenFeed)))
            return seeing(item, selection, &state)
        case .openLink:
            guard let item else { return [] }
            if let text = item.url, let url = URL(string: InertLink.encode(text)) {
                return [.open(url)] + seeing(item, selection, &state)
            }
            // A story without a link of its own (Ask HN, a self post) is its discussion.
            guard selection.isInOpenFeed, state.feed.commentsAvailable else {
                raise(&state, "no link")
                return []
            }
            return [.openDiscussion(item)] + seeing(item, selection, &state)
        case .comments:
            guard let item else { return [] }
            guard state.feed.commentsAvailable else {
                raise(&state, "no comments: this feed does not say where they are (a \"comments\" field in feeds.json)")
                return []
            }
            let seen = seeing(item, selection, &state)
            state.screens.push(.comments(CommentsScreen(item: item, textWidth: state.settings.textWidth)))
            return [.loadComments(item, policy: .returnCacheElseLoad)] + seen
        case .discussion:
            guard let item else { return [] }
            guard state.feed.commentsAvailable else {
                raise(&state, "no discussion page: this feed does not say where comments are")
                return []
            }
            return [.openDiscussion(item)]
        case .yankLink:
            // What is copied is pasted into terminals: printable text only, so a paste can neither end
            // a bracketed paste nor start a line. The link is the one `o` opens (`InertLink`).
            guard let item else { return [] }
            guard let link = item.url.map(InertLink.encode), !link.isEmpty else {
                raise(&state, "no link to copy")
                return []
            }
            return [.copy(link, what: "link")]
        case .yankJSON:
            // One line of JSON with every control, C1 and bidirectional control as a `\u` escape.
            guard let item else { return [] }
            var text = ""
            JSONWriter.write(item.fields, into: &text)
            return [.copy(Sanitizer.json(text), what: "JSON")]
        case .toggleSeen:
            guard let item else { return [] }
            return toggleSeen(&state, item)
        case .save:
            guard let item else { return [] }
            return toggleSaved(&state, item)
        case .hideLike:
            guard let item else { return [] }
            guard selection.isInOpenFeed else {
                raise(&state, "open the result in its feed (Enter) to hide items like it", topic: .hidden)
                return []
            }
            let rules = ListScreen.rules(like: item)
            guard !rules.isEmpty else {
                raise(&state, "nothing to hide it by: the item has no author and no link", topic: .hidden)
                return []
            }
            state.screens.push(.overlay(.prompt(Prompt(.hide(rules)))))
            return []
        default:
            return nil
        }
    }

    /// The item commands that need the item's own feed, with what the toast calls them on an item of
    /// another (a search result, a saved item, shown on their own screens).
    private static let throughTheFeed: [Command: String] = [
        .comments: "comments", .discussion: "discussion pages", .toggleSeen: "seen marks", .save: "saved items",
    ]

    /// Opening an item of the open feed marks it seen.
    private static func seeing(_ item: Item, _ selection: ItemSelection, _ state: inout AppState) -> [Effect] {
        selection.isInOpenFeed ? markSeen(&state, [item]) : []
    }
}
