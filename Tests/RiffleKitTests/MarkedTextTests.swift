import Foundation
import Testing
@testable import RiffleKit

@Suite("A comment's text with its links numbered and its italics, code and quotes marked")
struct MarkedTextTests {
    static let discussion = URL(string: "https://news.ycombinator.com/item?id=1")

    /// The text each mark of `kind` covers.
    func marked(_ text: MarkedText, _ kind: MarkedText.Kind) -> [String] {
        let scalars = Array(text.text.unicodeScalars)
        return text.marks.filter { $0.kind == kind }.sorted { $0.range.lowerBound < $1.range.lowerBound }
            .map { String(String.UnicodeScalarView(scalars[$0.range])) }
    }

    @Test func hackerNewsLinksAreNumberedWhereTheyStandAndRelativeOnesResolveAgainstTheDiscussion() {
        // As HN sends them: a link whose text is its URL (cut with "..." when long), a relative one.
        let html = #"<p>See <a href="https://a.example/x" rel="nofollow">https://a.example/x</a> and <a href="item?id=5">this thread</a>.</p>"#
            + #"<p>Also <a href="https://b.example/a/very/long/path/to/a/page" rel="nofollow">https://b.example/a/very/lo...</a></p>"#
        let text = MarkedText(html: html, base: Self.discussion)
        #expect(text.text == "See https://a.example/x [1] and this thread [2].\n\nAlso https://b.example/a/very/lo... [3]")
        #expect(text.links.map(\.absoluteString) == ["https://a.example/x", "https://news.ycombinator.com/item?id=5",
                                                      "https://b.example/a/very/long/path/to/a/page"])
        #expect(marked(text, .link(1)) == ["[1]"] && marked(text, .link(2)) == ["[2]"] && marked(text, .link(3)) == ["[3]"])
        #expect(text.link(2)?.absoluteString == "https://news.ycombinator.com/item?id=5" && text.link(4) == nil)
    }

    @Test func bareURLsInPlainTextAreNumberedWithoutTheirPunctuation() {
        // Reddit's Markdown body: a [text](url) link and a bare one ending a sentence.
        let text = MarkedText(plain: "Try [gron](https://github.com/tomnomnom/gron), or https://jqlang.org. Also (https://en.wikipedia.org/wiki/Jq_(programming_language)).",
                              base: nil)
        #expect(text.links.map(\.absoluteString) == ["https://github.com/tomnomnom/gron", "https://jqlang.org",
                                                      "https://en.wikipedia.org/wiki/Jq_%28programming_language%29"], "made inert")
        #expect(text.text == "Try [gron](https://github.com/tomnomnom/gron [1]), or https://jqlang.org [2]. Also (https://en.wikipedia.org/wiki/Jq_(programming_language) [3]).")
    }

    @Test func oneNumberPerURLAndNoNumberForWhatCannotBeOpened() {
        let html = #"<p><a href="https://x.example/">x</a>, <a href="https://x.example/">again</a>, <a href="mailto:a@b.example">mail</a>, "#
            + #"<a href="javascript:alert(1)">js</a>, <a href="/relative">rel</a> and https://x.example/</p>"#
        let text = MarkedText(html: html, base: nil)
        #expect(text.text == "x [1], again [1], mail, js, rel and https://x.example/ [1]")
        #expect(text.links.map(\.absoluteString) == ["https://x.example/"])
        // With the discussion page, the relative one opens there.
        #expect(MarkedText(html: html, base: Self.discussion).links.map(\.absoluteString) == ["https://x.example/", "https://news.ycombinator.com/relative"])
    }

    @Test func aLinkIsMadeInertAndItsTextSafe() {
        let text = MarkedText(html: #"<p><a href="https://x.example/a b;$(rm -rf ~)">&#27;[2J</a></p>"#, base: nil)
        #expect(text.links.map(\.absoluteString) == ["https://x.example/a%20b%3B%24%28rm%20-rf%20~%29"])
        #expect(text.text == "␛[2J [1]")
    }

    /// A comment that is only a code block (Hacker News: `<pre><code>  code`) keeps the indentation of
    /// its first line, as of the others; tabs go to the next stop of 8 columns.
    @Test func aCodeBlockFirstKeepsItsIndentation() {
        let text = MarkedText(html: "<pre><code>  leading():\n      body\n\tx = 2</code></pre><p>after</p>", base: nil)
        #expect(text.text == "  leading():\n      body\n        x = 2\n\nafter")
        #expect(marked(text, .preformatted) == ["leading():\n      body\n        x = 2"])
    }

    @Test func italicsCodeQuotesAndPreformattedBlocksAreMarked() {
        let html = "<p>I <i>really</i> like <code>jq .</code>, <em>a lot</em></p><blockquote><p>quoted words</p></blockquote>"
            + "<pre><code>  let a = 1\n    let b  = 2\n</code></pre><p>after <a href=\"https://x.example/\"><i>it</i></a></p>"
        let text = MarkedText(html: html, base: nil)
        #expect(text.text == "I really like jq ., a lot\n\nquoted words\n\n  let a = 1\n    let b  = 2\n\nafter it [1]")
        #expect(marked(text, .italic) == ["really", "a lot", "it"], "the link's number is not in its italics")
        #expect(marked(text, .code) == ["jq .", "let a = 1\n    let b  = 2"])
        #expect(marked(text, .quote) == ["quoted words"])
        #expect(marked(text, .preformatted) == ["let a = 1\n    let b  = 2"])
        // And plain reading is as it was: links as "text (url)"
        #expect(HTMLText.plainText("<p>I <i>really</i> like <a href=\"https://x.example/a\">it</a></p>") == "I really like it (https://x.example/a)")
    }
}
