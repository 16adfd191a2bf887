import Foundation
import RiffleKit
import RiffleTUI

/// What a screen costs when its content is hostile in size (issue 25.3): an item with a 5 MB title,
/// a thread of a million comments, a feed list of 10,000 feeds. Each figure is an update and the
/// frame after it, as a key costs in the browser (`riffle-bench screens`).
struct ScreenSection {
    let iterations = 20

    func run() {
        print("\nScreens of hostile size, 120x40 (ms: an update and its frame; median and best of \(iterations))")
        var table = Table("step", "median", "best")
        func row(_ name: String, iterations: Int = iterations, warmup: Int = 2, _ body: () -> Void) {
            let timing = measure(iterations: iterations, warmup: warmup, body)
            table.add(name, String(format: "%.3f", timing.median / 1000), String(format: "%.3f", timing.best / 1000))
        }
        let size = Size(width: 120, height: 40)
        let now = Date()

        // An item whose title (and text) is 5 MB of words.
        let huge = String(repeating: "word ", count: 1 << 20)
        let big = Item(id: "big", title: huge, details: [], url: "https://example.com/big", createdAt: now,
                       fields: .object(JSONObject([("title", .string(huge)), ("text", .string(huge))])))
        var list = AppState(feedTitle: "bench", size: size, now: now)
        _ = App.update(&list, .start)
        _ = App.update(&list, .pageLoaded(Page(number: 1, items: [big], data: Data(), source: .cache, fetchedAt: now, status: 200)))
        row("item of a 5 MB title: Enter, then its frame") {
            var opening = list
            _ = App.update(&opening, .event(.key(.enter)))
            blackHole(App.view(opening))
        }
        var item = list
        _ = App.update(&item, .event(.key(.enter)))
        row("item of a 5 MB title: j, then its frame") {
            _ = App.update(&item, .event(.key(.character("j"))))
            blackHole(App.view(item))
        }
        row("item of a 5 MB title: G then g, each with its frame") {
            _ = App.update(&item, .event(.key(.character("G"))))
            blackHole(App.view(item))
            _ = App.update(&item, .event(.key(.character("g"))))
            blackHole(App.view(item))
        }

        // A thread of a million comments, five deep.
        let comments = (0..<1_000_000).map { i in
            CommentThread.Comment(depth: i % 5, author: "user\(i % 997)", text: "comment \(i): a line of text that says something about the story",
                                  createdAt: now, id: "c\(i)")
        }
        let thread = CommentThread(comments: comments)
        // On an ordinary story: the 5 MB one above would make its own text the cost.
        var story = AppState(feedTitle: "bench", size: size, now: now)
        _ = App.update(&story, .start)
        let ask = Item(id: "ask", title: "Ask HN: what do you read feeds with?", details: ["pg"], url: nil, createdAt: now,
                       fields: .object(JSONObject([("story_text", .string("<p>A question with <i>some</i> text.</p>"))])))
        _ = App.update(&story, .pageLoaded(Page(number: 1, items: [ask], data: Data(), source: .cache, fetchedAt: now, status: 200)))
        story.feed.commentsAvailable = true
        _ = App.update(&story, .event(.key(.character("c"))))
        let key = story.list.selectedKey ?? ""
        row("thread of 1M comments: opened (the thread arrives), then its frame", iterations: 10) {
            var opening = story
            _ = App.update(&opening, .commentsLoaded(item: key, thread))
            blackHole(App.view(opening))
        }
        var reading = story
        _ = App.update(&reading, .commentsLoaded(item: key, thread))
        row("thread of 1M comments: j, then its frame", iterations: 200) {
            _ = App.update(&reading, .event(.key(.character("j"))))
            blackHole(App.view(reading))
        }
        row("thread of 1M comments: ], then its frame", iterations: 200) {
            _ = App.update(&reading, .event(.key(.character("]"))))
            blackHole(App.view(reading))
        }
        row("thread of 1M comments: G then g, each with its frame") {
            _ = App.update(&reading, .event(.key(.character("G"))))
            blackHole(App.view(reading))
            _ = App.update(&reading, .event(.key(.character("g"))))
            blackHole(App.view(reading))
        }
        row("thread of 1M comments: Enter (fold) twice, each with its frame") {
            _ = App.update(&reading, .event(.key(.enter)))
            blackHole(App.view(reading))
            _ = App.update(&reading, .event(.key(.enter)))
            blackHole(App.view(reading))
        }

        // A feed list of 10,000 feeds, each with its count.
        let entries = (0..<10_000).map { FeedEntry(name: "feed\($0)", description: "feed number \($0)", origin: .feedsFile) }
        var feeds = AppState.feedList(size: size, now: now)
        _ = App.update(&feeds, .start)
        row("feed list of 10K feeds: listed, every count in, then its frame", iterations: 5, warmup: 1) {
            var listing = feeds
            _ = App.update(&listing, .feedsListed(entries))
            for entry in entries { _ = App.update(&listing, .feedSummarized(name: entry.name, FeedSummary(unseen: 3, fetchedAt: now))) }
            blackHole(App.view(listing))
        }
        _ = App.update(&feeds, .feedsListed(entries))
        for entry in entries { _ = App.update(&feeds, .feedSummarized(name: entry.name, FeedSummary(unseen: 3, fetchedAt: now))) }
        row("feed list of 10K feeds: j, then its frame", iterations: 200) {
            _ = App.update(&feeds, .event(.key(.character("j"))))
            blackHole(App.view(feeds))
        }
        row("feed list of 10K feeds: a frame while idle (a tick)", iterations: 200) {
            _ = App.update(&feeds, .tick(now))
            blackHole(App.view(feeds))
        }
        table.print()
    }
}
