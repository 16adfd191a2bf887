/// What a key does: the browser's keys are bound to these, so a user can move them (`config.json`'s
/// `keys`) and the help shows the keys in force. Names are the ones `config.json` uses.
package enum Command: String, Sendable, Hashable, CaseIterable {
    case down, up, first, last
    case pageDown = "page-down", pageUp = "page-up", halfDown = "half-down", halfUp = "half-up"
    case nextPage = "next-page", previousPage = "previous-page"
    /// Enter: the item's fields; in the feed list, the feed; in comments, fold or unfold a thread.
    case open
    /// `]` / `[` in comments: the next / previous top-level comment.
    case nextThread = "next-thread", previousThread = "previous-thread"
    /// `U` in comments: the previous comment new since the last visit (`u`, `nextUnseen`, the next one).
    case previousNew = "previous-new"
    case rawJSON = "raw-json"
    case openLink = "open-link"
    case comments
    case discussion
    case yankLink = "yank-link", yankJSON = "yank-json"
    case toggleSeen = "toggle-seen", markAllSeen = "mark-all-seen"
    case nextUnseen = "next-unseen"
    case save
    case filter
    case search
    case sort
    /// `H`: list the items the feed's rules hide, dimmed, or hide them again.
    case showHidden = "show-hidden"
    /// `x`: hide items like the selected one (its author, its link's site), asking which, saved in
    /// the feed's `hide` in feeds.json.
    case hideLike = "hide-like"
    case reload
    case reloadAll = "reload-all"
    case watch
    /// `e`: on the list, the field picker; in the feed list, rename a feed.
    case edit
    /// `d`: in the feed list, remove a feed (asks first).
    case remove
    case feeds
    case log
    case help
    /// Esc: close, clear the filter, go back.
    case back
    /// q: back from a screen; quits from the first one.
    case quit

    /// What the help says it does.
    package var summary: String {
        switch self {
        case .down: "move down"
        case .up: "move up"
        case .first: "first item"
        case .last: "last item"
        case .pageDown: "a screen down"
        case .pageUp: "a screen up"
        case .halfDown: "half a screen down"
        case .halfUp: "half a screen up"
        case .nextPage: "next page"
        case .previousPage: "previous page"
        case .open: "item / fold, load more / result"
        case .nextThread: "comments: next top-level comment"
        case .previousThread: "comments: previous top-level comment"
        case .previousNew: "comments: previous new comment"
        case .rawJSON: "item: story / fields / raw JSON"
        case .openLink: "open the link (comment: its links)"
        case .comments: "comments (result: its feed)"
        case .discussion: "discussion page in the browser"
        case .yankLink: "copy the link"
        case .yankJSON: "copy the JSON (comment: permalink)"
        case .toggleSeen: "mark seen / unseen"
        case .markAllSeen: "mark everything loaded seen"
        case .nextUnseen: "next unseen item; comments: next new"
        case .save: "save for later / unsave (F: saved)"
        case .filter: "filter (Enter keep, Esc clear)"
        case .search: "search everything seen"
        case .sort: "sort: feed/newest/score/best"
        case .showHidden: "show / hide what rules hide"
        case .hideLike: "hide items like this (author / site)"
        case .reload: "reload page / retry a failure; F: refresh the feed"
        case .reloadAll: "reload every page; F: refresh every feed"
        case .watch: "watch page 1 for new items"
        case .edit: "pick fields (F: rename)"
        case .remove: "F: remove a feed (asks)"
        case .feeds: "feed list"
        case .log: "message log"
        case .help: "this help"
        case .back: "back / clear the filter"
        case .quit: "back; quits the first screen"
        }
    }
}

extension Command {
    /// Where a movement command takes `selection` in a list of `count` rows with `rows` on screen
    /// (before the caller keeps it within the list); nil for a command that does not move. The side lists (feeds, search
    /// results) move with it; the main list also pages and loads, so it has its own.
    func moved(_ selection: Int, count: Int, rows: Int) -> Int? {
        let target: Int
        switch self {
        case .down: target = selection + 1
        case .up: target = selection - 1
        case .first: target = 0
        case .last: target = count - 1
        case .pageDown: target = selection + rows
        case .pageUp: target = selection - rows
        case .halfDown: target = selection + max(1, rows / 2)
        case .halfUp: target = selection - max(1, rows / 2)
        default: return nil
        }
        return target
    }
}
