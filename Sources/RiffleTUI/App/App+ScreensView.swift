import Foundation
import RiffleKit

extension App {
    /// The comments screen: the item's title, the tree, and where the reader is in it.
    static func renderComments(_ comments: CommentsState, state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: Sanitizer.clean(comments.item.title), hint: "q back").render(into: &buffer, area: area)
        let list = listArea(for: state.size)
        var facts: [String]
        if let thread = comments.thread {
            let layout = CommentTreeView.layout(comments, width: state.size.width - 2, now: state.now)
            if thread.comments.isEmpty {
                Centered(text: "no comments yet", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            } else {
                CommentTreeView(layout: layout, selection: comments.selection, scroll: comments.scroll).render(into: &buffer, area: list)
            }
            let count = thread.comments.filter { $0.more == nil }.count
            facts = [count == 1 ? "1 comment" : "\(count) comments"]
            if !thread.comments.isEmpty {
                facts.insert("comment \(comments.selection + 1)/\(thread.comments.count)", at: 0)
                let last = min(layout.lines.count, comments.scroll + list.height)
                facts.append("lines \(min(layout.lines.count, comments.scroll + 1))-\(last) of \(layout.lines.count)")
            }
            facts.append("Enter folds · C page")
        } else if let failure = comments.failure {
            Centered(text: "\(failure)\n\nr to retry", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        } else {
            Centered(text: "loading comments…", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: list)
            facts = ["comments"]
        }
        let activity = comments.thread == nil && comments.failure == nil ? "loading comments" : nil
        StatusBar(facts: facts, activity: activity, spinnerFrame: state.spinnerFrame, dropOrder: [facts.count - 1, 0])
            .render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// The feed list: each feed's name, what is new in it and when it was fetched, and what it is.
    static func renderFeeds(_ list: FeedListState, state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "feeds", hint: state.hasFeed && !state.back.isEmpty ? "Enter opens · q back" : "Enter opens · q quits").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let rect = listArea(for: state.size)
        guard let entries = list.entries else {
            Centered(text: "listing feeds…", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: rect)
            return
        }
        if entries.isEmpty {
            Centered(text: "no feeds", style: Style(.placeholder, dim: true), margin: 1).render(into: &buffer, area: rect)
        }
        let nameWidth = min(max(8, entries.map { TextWidth.width(of: label(of: $0)) }.max() ?? 0), max(8, area.width / 3))
        let countWidth = 14, ageWidth = 16
        for row in 0..<rect.height {
            let index = list.scroll + row
            guard entries.indices.contains(index) else { break }
            let entry = entries[index]
            let y = rect.y + row
            let selected = index == list.selection
            buffer.fill(Rect(x: rect.x, y: y, width: rect.width, height: 1), style: selected ? Style(.selection) : .normal)
            let summary = list.summaries[entry.name]
            let unseen = summary?.unseen ?? 0
            let strong = selected ? Style(.selection, bold: true) : unseen > 0 ? Style(.normal, bold: true) : .normal
            let dim = selected ? Style(.selection, dim: true) : Style(.dim, dim: true)
            var x = rect.x + 1
            buffer.write(label(of: entry), x: x, y: y, maxWidth: nameWidth, style: strong)
            x += nameWidth + 2
            let count = summary.map { $0.unseen.map { $0 == 0 ? "nothing new" : "\($0) new" } ?? "not fetched" } ?? ""
            buffer.write(count, x: x, y: y, maxWidth: max(0, rect.maxX - 1 - x), style: unseen > 0 ? strong : dim)
            x += countWidth
            let fetched = summary?.fetchedAt.map { "fetched " + Timestamp.age(of: $0, now: state.now) } ?? ""
            buffer.write(fetched, x: x, y: y, maxWidth: max(0, rect.maxX - 1 - x), style: dim)
            x += ageWidth + 1
            if x < rect.maxX - 1 { buffer.write(entry.description, x: x, y: y, maxWidth: rect.maxX - 1 - x, style: dim) }
        }
        let withNew = entries.filter { (list.summaries[$0.name]?.unseen ?? 0) > 0 }.count
        let facts = [entries.count == 1 ? "1 feed" : "\(entries.count) feeds", withNew == 1 ? "1 with new items" : "\(withNew) with new items",
                     "S search · ? keys"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }

    /// How the feed list names a feed: `reddit:SUBREDDIT` for one that still needs its argument.
    static func label(of entry: FeedEntry) -> String {
        entry.argument.map { "\(entry.name):\($0)" } ?? entry.name
    }

    /// What a search found, from every feed: title, feed, author and age, seen ones dimmer.
    static func renderSearch(_ search: SearchState, state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "search: \(search.query)", hint: "q back").render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let rect = listArea(for: state.size)
        let items = search.items
        let empty = search.matches == nil ? "searching…" : search.failure ?? "nothing seen matches \"\(search.query)\""
        var view = ListView(items: items, selection: search.selection, offset: search.scroll, now: state.now, emptyText: empty)
        view.marks = (search.matches ?? []).map { ListView.Mark(seen: $0.seenAt != nil, arrived: false) }
        view.glyphs = state.marksWithGlyphs
        view.render(into: &buffer, area: rect)
        let count = search.matches?.count ?? 0
        let facts = search.matches == nil ? ["searching"]
            : [count == 0 ? "no matches" : "match \(search.selection + 1)/\(count)", "every feed, offline", "Enter shows · o opens"]
        StatusBar(facts: facts, dropOrder: [2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
