import Foundation
import RiffleKit
import RiffleTUI

/// What drawing the list costs when a server sends a title of megabytes: each key press draws a
/// frame, so this is the time between a key and the screen's answer.
struct DrawSection {
    let iterations = 20

    func run() {
        print("Drawing the list, 120x40, one screen of items (ms a frame, median of \(iterations))")
        var table = Table("titles", "median", "best")
        for (name, title) in [("50 ordinary", "Show HN: a terminal UI for paged JSON feeds"),
                              ("one of 5 MB, ASCII", String(repeating: "a", count: 5 << 20)),
                              ("one of 5 MB, CJK and emoji", String(repeating: "漢字😀", count: (5 << 20) / 11))] {
            let items = (0..<50).map { i in
                Item(id: "\(i)", title: i == 0 ? title : "item \(i)", details: ["pg", "12 points"], url: nil, createdAt: nil, fields: .null)
            }
            let list = ListView(items: items, selection: 0, offset: 0, now: Date())
            let timing = measure(iterations: iterations, warmup: 2) {
                var buffer = Buffer(size: Size(width: 120, height: 40))
                list.render(into: &buffer, area: buffer.area)
                blackHole(buffer)
            }
            table.add(name, String(format: "%.3f", timing.median / 1000), String(format: "%.3f", timing.best / 1000))
        }
        table.print()
        print("")
        browser()
    }

    /// The whole browser on a long list: what a key and its frame cost with 100 pages loaded (the
    /// list's index, the status bar's counts and the visible rows), and with a filter typed.
    func browser() {
        print("The browser, 120x40, 100 pages of 50 items loaded (ms, median of \(iterations))")
        var table = Table("step", "median", "best")
        let now = Date()
        var state = AppState(feedTitle: "bench", size: Size(width: 120, height: 40), now: now)
        _ = App.update(&state, .start)
        for number in 1...100 {
            if number > 1 { _ = App.update(&state, .event(.key(.character("n")))) }
            let items = (0..<50).map { i in
                Item(id: "\(number)-\(i)", title: "item \(i) of page \(number)", details: ["pg", "12 points"], url: "https://example.com/\(number)/\(i)",
                     createdAt: now, fields: .null)
            }
            _ = App.update(&state, .pageLoaded(Page(number: number, items: items, data: Data(), source: .cache, fetchedAt: now, status: 200)))
        }
        _ = App.update(&state, .seenLoaded([]))
        func row(_ name: String, _ body: () -> Void) {
            let timing = measure(iterations: iterations, warmup: 2, body)
            table.add(name, String(format: "%.3f", timing.median / 1000), String(format: "%.3f", timing.best / 1000))
        }
        row("a frame (App.view)") { blackHole(App.view(state)) }
        var moving = state
        row("j, then its frame") {
            _ = App.update(&moving, .event(.key(.character("j"))))
            blackHole(App.view(moving))
        }
        var filtering = state
        _ = App.update(&filtering, .event(.key(.character("/"))))
        row("a filter letter and its frame, erased and its frame") {
            _ = App.update(&filtering, .event(.key(.character("1"))))
            blackHole(App.view(filtering))
            _ = App.update(&filtering, .event(.key(.backspace)))
            blackHole(App.view(filtering))
        }
        var reading = state
        let long = String(repeating: "a line of the story's text that wraps at the screen's width. ", count: 40)
        let fields = JSONValue.object(JSONObject((0..<200).map { ("field \($0)", JSONValue.string(long)) }))
        _ = App.update(&reading, .event(.key(.character("g"))))
        _ = App.update(&reading, .event(.key(.character("r"))))
        _ = App.update(&reading, .pageLoaded(Page(number: 1, items: [Item(id: "big", title: "big", details: [], url: nil, createdAt: now, fields: fields)],
                                                   data: Data(), source: .network, fetchedAt: now, status: 200)))
        _ = App.update(&reading, .event(.key(.character("g"))))
        _ = App.update(&reading, .event(.key(.enter)))
        row("j in an item of 200 long fields, then its frame") {
            _ = App.update(&reading, .event(.key(.character("j"))))
            blackHole(App.view(reading))
        }
        var thread = state
        thread.feed.commentsAvailable = true
        _ = App.update(&thread, .event(.key(.character("c"))))
        let comments = (0..<2_000).map { CommentThread.Comment(depth: $0 % 5, author: "user\($0)", text: long, createdAt: now) }
        _ = App.update(&thread, .commentsLoaded(item: thread.list.selectedKey ?? "", CommentThread(comments: comments)))
        row("j in a thread of 2,000 comments, then its frame") {
            _ = App.update(&thread, .event(.key(.character("j"))))
            blackHole(App.view(thread))
        }
        table.print()
    }
}
