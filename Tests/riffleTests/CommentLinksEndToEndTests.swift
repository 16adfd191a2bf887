import DemoServer
import Foundation
import Testing

/// The links of a comment and its permalink, driven in tmux against an HN-shaped thread on 127.0.0.1:
/// `o` lists a comment's two links, `2` opens the second in the browser, `Y` copies the permalink.
@Suite("riffle in tmux: a comment's links and permalink", .serialized)
struct CommentLinksEndToEndTests {
    @Test func oThenADigitOpensACommentsLinkAndYCopiesItsPermalink() async throws {
        let home = try DailyEndToEndTests.Home()
        // An Algolia-shaped item: a comment without links, then a reply with an absolute and a relative link.
        let server = try HTTPServer { request in
            switch request.path {
            case "/stories/1": .json(#"[{"id": "31", "title": "Show HN: a reader", "author": "ann", "url": "https://story.example/"}]"#)
            case "/items/31": .json(#"""
                {"id": 31, "children": [
                  {"id": 41, "author": "bob", "text": "<p>No links in this one.</p>", "children": [
                    {"id": 42, "author": "cy", "text": "<p>Compare <a href=\"https://one.example/a\" rel=\"nofollow\">https://one.example/a</a> with <a href=\"item?id=7\">the old thread</a>.</p>", "children": []}
                  ]}
                ]}
                """#)
            default: .json("[]")
            }
        }
        defer { server.stop() }
        let base = server.baseURL.absoluteString
        try home.write("feeds.json", #"""
        {"feeds": {"shown": {"url": "\#(base)/stories/{page}", "pagination": {"style": "page", "first": 1},
                             "comments": {"url": "\#(base)/items/{id}", "page": "\#(base)/item?id={id}", "items": "children",
                                          "children": "children", "author": "author", "text": "text", "id": "id",
                                          "permalink": "\#(base)/item?id={id}"}}}}
        """#)
        let opened = home.config.appending(path: "opened.txt")
        let browser = home.config.appending(path: "record-url")
        try LinkOpenerTests.Browsers.writeExecutable("#!/bin/sh\nprintf '%s' \"$1\" > '\(opened.path)'\n", to: browser.path)
        let session = try FeedbackEndToEndTests.session(home, ["shown"], browser: browser)
        try session.tmux(["set-option", "-s", "set-clipboard", "on"])
        #expect(await session.waitFor { session.screen().contains("Show HN: a reader") }, "\(session.screen())")

        // Given the reply with two links selected, numbered where they stand
        try session.send("c")
        #expect(await session.waitFor { session.screen().contains("with the old thread [2].") }, "\(session.screen())")
        try session.send("j")
        #expect(await session.waitFor { DailyEndToEndTests.statusBar(session).contains("o its 2 links") }, "\(session.screen())")

        // When o lists them and 2 picks the second
        try session.send("o")
        #expect(await session.waitFor { session.screen().contains("[2] \(base)/item?id=7") }, "\(session.screen())")
        try session.send("2")
        // Then the browser got the relative link resolved against the discussion page, and a toast says so
        let expected = base + "/item?id=7"
        #expect(await session.waitFor { (try? String(contentsOf: opened, encoding: .utf8)) == expected },
                "opened \((try? String(contentsOf: opened, encoding: .utf8)) ?? "nothing"); \(session.screen())")
        #expect(await session.waitFor { session.screen().contains("opened in record-url") }, "\(session.screen())")

        // And Y copies the comment's permalink (OSC 52, kept by tmux as a paste buffer)
        try session.send("Y")
        #expect(await session.waitFor { session.screen().contains("copied permalink") }, "\(session.screen())")
        #expect(await session.waitFor { (try? session.tmux(["show-buffer"])) == base + "/item?id=42" },
                "buffer: \((try? session.tmux(["show-buffer"])) ?? "none")")
        try session.send("q")
        try await DailyEndToEndTests.quit(session)
    }
}
