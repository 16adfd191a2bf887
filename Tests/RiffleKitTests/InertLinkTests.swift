import Foundation
import Testing
@testable import RiffleKit

/// `InertLink`: a link made one word of printable ASCII that a shell cannot act on, meaning the same URL.
@Suite("An inert link is one printable word and the same URL")
struct InertLinkTests {
    /// Links as APIs send them, already inert: they come back byte for byte.
    @Test(arguments: [
        "https://github.com/apple/swift/issues/123",
        "https://news.ycombinator.com/item?id=38000000",
        "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=42",
        "https://example.com/a?b=1&c=%20d",
        "https://example.com/search?q=swift+concurrency&page=2#results",
        "https://[2001:db8::1]:8443/feed.json?page=3",
        "http://127.0.0.1:8080/api/items?page=1",
        "https://mastodon.social/@swift/111222333",
        "https://example.com/#/inbox/42?tab=unread&sort=new",
        "https://www.npmjs.com/package/@types/node",
    ])
    func ordinaryLinksComeBackAsTheyAre(link: String) {
        #expect(InertLink.encode(link) == link)
    }

    /// The mark of a key riffle hid reads `***` in a link as in every listing, whichever way it came.
    @Test func theMarkOfAHiddenKeyStaysTheMark() {
        #expect(InertLink.encode("https://x.test/s?apiKey=***&page=2") == "https://x.test/s?apiKey=***&page=2")
        #expect(InertLink.encode("https://x.test/s?page=2&apiKey=%2A%2A%2A") == "https://x.test/s?page=2&apiKey=***")
        #expect(InertLink.encode("https://x.test/s?page=2&api-key=***") == "https://x.test/s?page=2&%61pi-key=***")
        // Anything else with a star is encoded as before; so is the mark outside a query value.
        #expect(InertLink.encode("https://x.test/s?a=**&=***&b=***x#k=***") == "https://x.test/s?a=%2A%2A&=%2A%2A%2A&b=%2A%2A%2Ax#k=%2A%2A%2A")
        for link in ["https://x.test/s?page=2&api-key=***", "https://x.test/s?a=**&=***"] {
            #expect(InertLink.encode(InertLink.encode(link)) == InertLink.encode(link))
        }
    }

    /// What becomes of each part, and that the URL still names the same thing: the host, the decoded
    /// path, the decoded query items (as a form decoder reads them) and the fragment.
    @Test(arguments: [
        ("https://x.test/$(touch$IFS/FILE)", "https://x.test/%24%28touch%24IFS/FILE%29"),
        ("https://x.test/a;id|sh&b `id`", "https://x.test/a%3Bid%7Csh%26b%20%60id%60"),
        (#"https://x.test/q?a='1'&b="2"&c=<3>&d=*"#, "https://x.test/q?a=%271%27&b=%222%22&c=%3C3%3E&d=%2A"),
        ("https://x.test/?a=1&touch${IFS}/tmp/F&debug&=x&+y", "https://x.test/?a=1&%74ouch%24%7BIFS%7D%2Ftmp%2FF&%64ebug&=%78&+%79"),
        ("https://x.test/?a=1&x=$(id)&url=https://y.test/p?q", "https://x.test/?a=1&x=%24%28id%29&url=https%3A%2F%2Fy.test%2Fp%3Fq"),
        ("https://x.test/#a&/bin/id&n=/v", "https://x.test/#a&%2Fbin%2Fid&n=/v"),
        ("https://en.wikipedia.org/wiki/Swift_(programming_language)", "https://en.wikipedia.org/wiki/Swift_%28programming_language%29"),
        ("https://例え.jp/日本?q=東京", "https://%E4%BE%8B%E3%81%88.jp/%E6%97%A5%E6%9C%AC?q=%E6%9D%B1%E4%BA%AC"),
        ("https://u$(id):p;w@x.test:8080/", "https://u%24%28id%29:p%3Bw@x.test:8080/"),
        ("  https://x.test/a\tb\nc\r\n ", "https://x.test/abc"),
    ] as [(String, String)])
    func everyOtherByteIsPercentEncodedWithoutChangingTheURL(link: String, inert: String) throws {
        let encoded = InertLink.encode(link)
        #expect(encoded == inert)
        #expect(encoded.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "one word of printable ASCII")
        #expect(InertLink.encode(encoded) == encoded, "encoding again changes nothing")

        // The link as a browser reads it: tabs and line breaks dropped, the ends trimmed, what is not
        // allowed raw percent-encoded.
        var scalars = link.unicodeScalars
        scalars.removeAll { $0 == "\t" || $0 == "\r" || $0 == "\n" }
        let fixedUp = String(scalars).trimmingCharacters(in: .whitespaces)
            .addingPercentEncoding(withAllowedCharacters: Self.validOrPercent)!
        let original = try #require(URLComponents(string: fixedUp))
        let made = try #require(URLComponents(string: encoded))
        #expect(made.percentEncodedHost?.removingPercentEncoding == original.percentEncodedHost?.removingPercentEncoding)
        #expect(made.port == original.port)
        #expect(made.path == original.path)
        #expect(made.queryItems == original.queryItems)
        #expect(made.fragment == original.fragment)
        #expect(made.user == original.user && made.password == original.password)
    }

    @Test func aPercentSignThatEscapesNothingIsEncodedItself() {
        #expect(InertLink.encode("https://x.test/100%/%zz%4") == "https://x.test/100%25/%25zz%254")
    }

    /// What URLComponents accepts raw (it refuses a link with spaces or non-ASCII, which browsers fix
    /// up by percent-encoding, as this test does to read the original).
    static let validOrPercent = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=%")

    @Test func controlsEscapesAndSeparatorsNeverSurvive() {
        for scalar in (0...0x40).map({ Unicode.Scalar(UInt8($0)) }) + ["\u{7F}", "\u{85}", "\u{9B}", "\u{202E}", "\u{2028}", "\u{FEFF}"] {
            for place in ["https://x.test/%@", "https://x.test/?a=%@&b=%@", "https://x.test/#%@", "https://%@x.test/"] {
                let link = InertLink.encode(place.replacingOccurrences(of: "%@", with: String(scalar)))
                #expect(link.utf8.allSatisfy { (0x21...0x7E).contains($0) }, "\(link)")
                #expect(!link.contains(where: { "$`()|;<>'\"\\{}*[] ".contains($0) }), "\(scalar.value): \(link)")
            }
        }
    }
}
