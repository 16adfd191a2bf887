import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache
@testable import RiffleHTTP

@Suite("Cache keys: canonical URLs and credentials")
struct CacheKeyTests {
    @Test(arguments: [
        ("HTTP://Example.COM:80/a?b=2&a=1", "http://example.com/a?a=1&b=2"),
        ("https://example.com:443", "https://example.com/"),
        ("https://example.com:8443/x", "https://example.com:8443/x"),
        ("http://example.com/a?x=%7e&y=a%20b#frag", "http://example.com/a?x=~&y=a%20b"),
        ("http://example.com/a?tag=b&tag=a&id=1", "http://example.com/a?id=1&tag=b&tag=a"),
        ("http://user:secret@example.com/a", "http://example.com/a"),
        ("http://example.com/a?q=a+b&Z=1&page=2", "http://example.com/a?Z=1&page=2&q=a+b"),
        ("http://example.com/a?q=%41%2fb", "http://example.com/a?q=A%2Fb"),
        ("http://example.com/a?q=c%2b%2B&r=c++&s=a+%2B+b", "http://example.com/a?q=c%2B%2B&r=c++&s=a+%2B+b"),
        ("http://[::1]:8080/a", "http://[::1]:8080/a"),
        ("HTTP://[FE80::1]/a", "http://[fe80::1]/a"),
        ("http://127.0.0.1:80/", "http://127.0.0.1/"),
    ])
    func canonicalURL(input: String, expected: String) {
        #expect(URLCanonicalizer.canonical(URL(string: input)!) == expected)
    }

    @Test func methodBodyAndCredentialsSeparateKeys() {
        let url = URL(string: "http://example.com/a")!
        var get = HTTPRequest(url: url)
        var post = HTTPRequest(url: url)
        post.method = .post
        post.body = Data("one".utf8)
        var otherPost = post
        otherPost.body = Data("two".utf8)
        #expect(Set([CacheKey(get), CacheKey(post), CacheKey(otherPost)]).count == 3)
        var alice = get
        alice.headers["Authorization"] = "Bearer alice"
        var bob = get
        bob.headers["Authorization"] = "Bearer bob"
        #expect(Set([CacheKey(get), CacheKey(alice), CacheKey(bob)]).count == 3)
        get.headers["Accept"] = "text/plain"  // not a credential, not in the key
        #expect(CacheKey(get) == CacheKey(HTTPRequest(url: url)))
    }

    @Test func spellingsOfOneURLShareOneRequest() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(fixture.server.port)/items?b=2&a=1#top")!))
        // Scheme and host case are covered above: libcurl refuses "HTTP://" and the server is an IP.
        let second = try await fixture.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(fixture.server.port)/items?a=1&b=%32")!))
        #expect(second.source == .cache)
        #expect(fixture.server.requestCount == 1)
    }

    /// `q=c%2B%2B` asks for "c++", `q=c++` for "c  " (a raw `+` is a space to servers): two answers.
    @Test func anEscapedPlusAndARawOneAreTwoRequests() async throws {
        let fixture = try CacheFixture()
        _ = try await fixture.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(fixture.server.port)/items?q=c%2B%2B")!))
        let spaces = try await fixture.get(HTTPRequest(url: URL(string: "http://127.0.0.1:\(fixture.server.port)/items?q=c++")!))
        #expect(spaces.source == .network)
        #expect(fixture.server.requestCount == 2)
    }

    @Test func tokensNeverShareAnEntryNorReachTheDisk() async throws {
        let fixture = try CacheFixture { $0.inlineLimit = 0 }  // bodies in files too, so every file is searched
        let alice = "alice-token-5f1b2c"
        let bob = "bob-token-9d8e7a"
        fixture.route.withLock { $0.headers.append(("Set-Cookie", "session=\(alice)")) }
        _ = try await fixture.get(fixture.request(headers: ["Authorization": "Bearer \(alice)", "Cookie": "s=\(alice)"]))
        let asBob = try await fixture.get(fixture.request(headers: ["Authorization": "Bearer \(bob)"]))
        let asAliceAgain = try await fixture.get(fixture.request(headers: ["Authorization": "Bearer \(alice)", "Cookie": "s=\(alice)"]))
        #expect(asBob.source == .network)
        #expect(asAliceAgain.source == .cache)
        #expect(fixture.server.requestCount == 2)
        let files = fixture.allFiles()
        #expect(files.count >= 3)
        for file in files {
            for token in [alice, bob] {
                #expect(file.data.range(of: Data(token.utf8)) == nil, "\(token) found in \(file.path)")
            }
        }
    }

    @Test func varyHeaderSeparatesEntries() async throws {
        let fixture = try CacheFixture()
        fixture.route.withLock { $0.headers.append(("Vary", "Accept-Language")) }
        _ = try await fixture.get(fixture.request(headers: ["Accept-Language": "en"]))
        #expect(try await fixture.get(fixture.request(headers: ["Accept-Language": "en"])).source == .cache)
        #expect(try await fixture.get(fixture.request(headers: ["Accept-Language": "fr"])).source == .network)
    }
}
