import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleKit

@Suite("HTML as text")
struct HTMLTextTests {
    @Test(arguments: [
        // Tags go, text stays; blocks are paragraphs, <br> a line.
        ("<p>One</p><p>Two<br>three</p>", "One\n\nTwo\nthree"),
        ("<div>a</div><div>b</div>", "a\nb"),
        ("<h2>Title</h2>Body", "Title\n\nBody"),
        ("<ul><li>one</li><li>two</li></ul>after", "• one\n• two\n\nafter"),
        ("<b>bold</b> and <em>em</em>, <code>x &lt; y</code>", "bold and em, x < y"),
        ("<BR/>Upper<P CLASS=\"x\">case</P>", "Upper\n\ncase"),
        ("<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></tr></table>", "a b\nc"),
        ("  lots   of\n\n   space  ", "lots of space"),
        ("<pre>keep\n  this</pre>", "keep\n  this"),
        // A text that opens with a code block keeps its first line's indentation (Hacker News sends
        // `<pre><code>  code`); a tab in a block goes to the next stop of 8 columns.
        ("<pre><code>  def f():\n      return 1</code></pre>", "  def f():\n      return 1"),
        ("<p>Go:</p><pre>func f() {\n\treturn\nab\tc\n}</pre>", "Go:\n\nfunc f() {\n        return\nab      c\n}"),
        ("a<!-- hidden <p> -->b<script>alert('<b>x</b>')</script><style>p{}</style>c", "abc"),
        ("<img src=\"x.png\" alt=\"a cat\"> sleeps", "a cat sleeps"),
        // Text that only looks like a tag stays.
        ("Vec<T> and Option<E> and a < b > c", "Vec<T> and Option<E> and a < b > c"),
        ("<unknown>x</unknown>", "<unknown>x</unknown>"),
        ("<p unterminated", "<p unterminated"),
    ])
    func tagsBecomeTheBreaksTheyMean(html: String, text: String) {
        #expect(HTMLText.plainText(html) == text)
    }

    @Test(arguments: [
        ("<a href=\"https://x.org/a\">the docs</a>", "the docs (https://x.org/a)"),
        ("<a href=\"https://x.org/a\">https://x.org/a</a>", "https://x.org/a"),
        ("<a href=\"https://www.x.org/a\">x.org/a</a>", "x.org/a"),
        ("<a href=\"https://x.org/a\"></a>", "https://x.org/a"),
        ("<a href=\"mailto:a@x.org\">mail</a>", "mail"),
        ("<a href='https://x.org/?a=1&amp;b=2' title=\"a>b\">q</a>", "q (https://x.org/?a=1&b=2)"),
        // Mastodon: the visible part of a long link, mentions and hashtags.
        ("<a href=\"https://github.com/mastodon/mastodon/releases\"><span class=\"invisible\">https://</span>"
            + "<span class=\"ellipsis\">github.com/mastodon/</span><span class=\"invisible\">mastodon/releases</span></a>",
         "https://github.com/mastodon/mastodon/releases"),
        ("<span class=\"h-card\"><a href=\"https://h.io/@ferris\" class=\"u-url mention\">@<span>ferris</span></a></span> hi",
         "@ferris hi"),
        ("<a href=\"https://m.social/tags/swift\" class=\"mention hashtag\" rel=\"tag\">#<span>swift</span></a>", "#swift"),
    ])
    func linksStayReadable(html: String, text: String) {
        #expect(HTMLText.plainText(html) == text)
    }

    @Test(arguments: [
        ("&amp; &lt; &gt; &quot; &apos; &eacute;&hellip; &mdash;", "& < > \" ' é… —"),
        ("&#39;&#34;&#x27;&#X1F600;&#128512;", "'\"'😀😀"),
        ("&#150; &#x80; &#153;", "– € ™"),            // 0x80-0x9F are Windows-1252, as HTML5 reads them
        ("&unknown; &amp no semicolon &#; &#x; &#12a;", "&unknown; &amp no semicolon &#; &#x; &#12a;"),
        ("a&nbsp;&nbsp;b", "a  b"),
    ])
    func referencesAreDecoded(html: String, text: String) {
        #expect(HTMLText.plainText("<p>" + html + "</p>") == text)
        #expect(HTMLText.decodingReferences(html) == text)
    }

    @Test func noControlCharacterSurvives() {
        let hostile = "<p>a\u{1B}[2Jb &#27;[31m &#0; &#x9D; &#xD800; &#x110000; \u{9B}c \u{202E}d \u{7F}</p>"
        let text = HTMLText.plainText(hostile)
        #expect(text == "a␛[2Jb ␛[31m ␀ \u{FFFD} \u{FFFD} \u{FFFD} \u{FFFD}c \u{FFFD}d ␡")
        #expect(HTMLText.decodingReferences("x&#27;y\u{1B}z\nw") == "x␛y␛z\nw")
    }

    /// Plain text with nothing to decode is kept as it is, found by its bytes; anything with a
    /// reference or a scalar a terminal must not get is decoded scalar by scalar, as before.
    @Test func theByteScanSendsEveryTextThatNeedsDecodingToTheDecoder() {
        let pieces: [String] = ["a", " ", "\n", "\t", "\r", "&", "&amp;", "&#x202E;", "\u{1B}", "\u{0}", "\u{7F}", "\u{80}", "\u{9F}",
                                "\u{A0}", "\u{C2}", "\u{202A}", "\u{202E}", "\u{202F}", "\u{2029}", "\u{2066}", "\u{2069}",
                                "\u{206A}", "\u{2065}", "é", "猫", "🇺🇦", "👩‍💻", "\u{FFFD}"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HTMLText.decodingReferences(text) == HTMLText.decodingEveryScalar(text), "\(text.unicodeScalars.map(\.value))")
        }
        for piece in pieces {
            #expect(HTMLText.decodingReferences("x\(piece)y") == HTMLText.decodingEveryScalar("x\(piece)y"), "\(piece.unicodeScalars.map(\.value))")
        }
    }

    @Test func spacesAreTrimmedAsFoundationTrimsThem() {
        let pieces = ["a", " ", "\n", "\t", "\r", "\u{B}", "\u{C}", "\u{85}", "\u{A0}", "\u{2003}", "\u{2028}", "\u{3000}", "\u{200B}",
                      "\u{FEFF}", "猫", "e\u{301}", "🇺🇦"]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5_000 {
            let text = (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            #expect(HTMLText.trimmingSpaces(text) == text.trimmingCharacters(in: .whitespacesAndNewlines), "\(text.unicodeScalars.map(\.value))")
        }
    }

    @Test(arguments: [
        ("<p>x</p>", true), ("a<br>b", true), ("a<br/>b", true), ("<b>x</b>", true), ("<img src=x />", true),
        ("<P class=a>", true), ("Vec<T>", false), ("a < b", false), ("1 </ 2", false), ("a/>b", false), ("plain", false),
    ])
    func htmlIsRecognisedBySignsOfMarkup(text: String, isHTML: Bool) {
        #expect(HTMLText.looksLikeHTML(text) == isHTML)
    }

    /// The byte scan (memchr for the first "<", then "/>") says what the character walk it replaced
    /// said, on random text made of the pieces that matter (the tag markers after it are shared).
    @Test func htmlIsRecognisedAsTheCharacterWalkRecognisedIt() {
        func walk(_ text: String) -> Bool {
            var previous: UInt8 = 0, sawLess = false
            for byte in text.utf8 {
                if byte == UInt8(ascii: "<") { sawLess = true }
                if previous == UInt8(ascii: "/") && byte == UInt8(ascii: ">") && sawLess { return true }
                previous = byte
            }
            return sawLess && HTMLText.hasMarkupTag(text)
        }
        let pieces = ["<", ">", "/", "/>", "</", "<br", "<P>", "<p ", "<img ", "<hr", "a", " ", "猫", "🇺🇦", "\n"]
        var rng = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let text = (0..<Int.random(in: 0...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            #expect(HTMLText.looksLikeHTML(text) == walk(text), "\(text)")
        }
    }

    /// Arbitrary bytes of markup never crash the reader, and never leave a control character.
    @Test func randomMarkupIsAlwaysCleanText() {
        var rng = SeededGenerator(seed: 42)
        let pieces = ["<", ">", "</", "/>", "&", ";", "#", "x", "<p>", "</p>", "<a href=\"", "\"", "'", "<br>", "&amp;", "&#",
                      "&#x", "1F", "9", "<!--", "-->", "<script>", "</script", " ", "\n", "\u{1B}", "\u{9B}", "é", "😀", "<li>", "<pre>"]
        for _ in 0..<2_000 {
            let html = (0..<Int.random(in: 0...24, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let text = HTMLText.plainText(html)
            #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) },
                    "\(html.debugDescription)")
            // Trimmed, but for the indentation of a code block the text opens with.
            let unindented = String(text.drop { $0 == " " })
            #expect(unindented == unindented.trimmingSpaces && (unindented == text || html.contains("<pre>")), "\(html.debugDescription)")
        }
    }
}
