import Foundation
import Testing
@testable import RiffleKit

@Suite("A secret is taken out in every spelling, and nothing else changes")
struct SecretRedactorTests {
    static let token = "abc/def+ghi"
    static let redactor = SecretRedactor([.init(value: token, reference: "${TOKEN}")])

    @Test(arguments: [
        ("raw", "abc/def+ghi"),
        ("JSON-escaped", #"abc\/def+ghi"#),
        ("\\u-escaped", #"\u0061\u0062\u0063\u002F\u0064\u0065\u0066\u002b\u0067\u0068\u0069"#),
        ("percent-encoded, upper case", "abc%2Fdef%2Bghi"),
        ("percent-encoded, lower case", "abc%2fdef%2bghi"),
        ("percent-encoded throughout", "%61%62%63%2f%64%65%66%2B%67%68%69"),
    ])
    func everySpellingInAJSONStringIsReplacedAndTheBodyStaysValid(spelling: String, echoed: String) throws {
        let body = Data(#"{"message": "bad token: \#(echoed) (expired)", "n": 150}"#.utf8)

        let redacted = Self.redactor.redact(body: body)

        let text = String(decoding: redacted, as: UTF8.self)
        let value = try JSONParser.parse(redacted)
        let message = try #require(value["message"]?.stringValue, "\(spelling): \(text)")
        #expect(!message.contains(Self.token) && !text.contains(echoed), "\(spelling): \(text)")
        #expect(message.hasPrefix("bad token: ") && message.hasSuffix(" (expired)"), "\(spelling): \(message)")
        #expect(message.contains("${TOKEN}") || message.contains("%24%7BTOKEN%7D"), "\(spelling): \(message)")
        #expect(value["n"] == .number("150"))
    }

    @Test func outsideJSONEverySpellingIsReplacedToo() {
        let page = "<html><p>token abc/def+ghi, abc%2fdef%2Bghi, \"abc\\/def+ghi\"</p></html>"
        let redacted = String(decoding: Self.redactor.redact(body: Data(page.utf8)), as: UTF8.self)
        #expect(redacted == "<html><p>token ${TOKEN}, %24%7BTOKEN%7D, \"${TOKEN}\"</p></html>")
        #expect(Self.redactor.redact("Bearer abc/def+ghi") == "Bearer ${TOKEN}")
        #expect(Self.redactor.redact("https://x.org/a?k=abc%2Fdef%2Bghi&b=1", inURL: true) == "https://x.org/a?k=%24%7BTOKEN%7D&b=1")
    }

    @Test func aBodyWithoutTheSecretIsReturnedByteForByte() throws {
        // Near misses: a prefix, a different case, a broken escape, the secret split by an escape.
        let bodies = [
            #"{"a": "abc/def+gh", "b": "ABC/DEF+GHI", "c": "abc\/def+gh", "d": "abc\/def\+ghi"}"#,
            #"[1, 2.5e3, true, null, "%2", "%zz", "\\", "abc\\/def"]"#,
            "not json at all: abc/ def+ghi",
        ]
        for body in bodies {
            #expect(Self.redactor.redact(body: Data(body.utf8)) == Data(body.utf8), "\(body)")
        }
        // A thousand generated documents of random text that cannot hold the secret (no "g"), unchanged.
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array(#"abcdef/+%2F\u0061 "{}[]:,0123456789"#)
        for _ in 0..<1000 {
            let text = String((0..<Int.random(in: 0...60, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            let body = Data(text.utf8)
            #expect(Self.redactor.redact(body: body) == body, "\(text)")
        }
    }

    @Test func aNumericSecretNeverBreaksANumberAndAWholeNumberBecomesAString() throws {
        let redactor = SecretRedactor([.init(value: "50", reference: "${PER_PAGE}")])
        let body = Data(#"{"count": 150, "page": 50, "size": 50.5, "text": "top 50"}"#.utf8)

        let redacted = redactor.redact(body: body)

        let value = try JSONParser.parse(redacted)
        #expect(value["count"] == .number("150"))
        #expect(value["size"] == .number("50.5"))
        #expect(value["page"] == .string("${PER_PAGE}"))
        #expect(value["text"] == .string("top ${PER_PAGE}"))
    }

    @Test func aMatchNeverStartsInsideAnEscape() throws {
        // The secret "n123" sits after `\` in "\n123": that is a line break and "123", not the secret.
        let redactor = SecretRedactor([.init(value: "n123", reference: "${K}")])
        let body = Data(#"{"a": "x\n123", "b": "n123"}"#.utf8)

        let redacted = redactor.redact(body: body)

        let value = try JSONParser.parse(redacted)
        #expect(value["a"] == .string("x\n123"))
        #expect(value["b"] == .string("${K}"))
    }

    @Test func errorsLoseTheirSecretsAndKeepTheirCase() {
        let error = RiffleError.transport("invalid URL: https://x.org/?key=abc%2Fdef%2Bghi")
        #expect(Self.redactor.redact(error) == .transport("invalid URL: https://x.org/?key=%24%7BTOKEN%7D"))
        let status = RiffleError.httpStatus(code: 401, excerpt: "Bearer abc/def+ghi is not valid")
        #expect(Self.redactor.redact(status) == .httpStatus(code: 401, excerpt: "Bearer ${TOKEN} is not valid"))
    }

    /// A key of the feed URL's own stands as `***` in every echo, percent-encoded or not, in a URL or
    /// a message: the mark riffle's listings show, never `%2A%2A%2A`.
    @Test func aHiddenKeyReadsAsTheMarkInEverySpelling() {
        let redactor = SecretRedactor([.init(value: "ab12+cd/34", reference: "***")])
        let error = RiffleError.httpStatus(code: 404, excerpt: "no page /items?apiKey=ab12%2Bcd%2F34&page=9")
        #expect(redactor.redact(error) == .httpStatus(code: 404, excerpt: "no page /items?apiKey=***&page=9"))
        #expect(redactor.redact("https://x.org/items?apiKey=ab12+cd/34&page=2", inURL: true) == "https://x.org/items?apiKey=***&page=2")
        let body = redactor.redact(body: Data(#"{"self": "/items?apiKey=ab12%2bcd%2F34", "next": "https:\/\/x.org\/?apiKey=ab12+cd\/34"}"#.utf8))
        #expect(String(decoding: body, as: UTF8.self) == #"{"self": "/items?apiKey=***", "next": "https:\/\/x.org\/?apiKey=***"}"#)
    }

    /// A short key is taken out where it stands as its parameter's whole value, in any spelling, and
    /// nowhere else: three letters are part of too many words.
    @Test func aShortKeyIsTakenOutAsItsParameterOnly() {
        let redactor = SecretRedactor([.init(value: "api_key=abc", reference: "api_key=***", isWholeValue: true)])
        #expect(redactor.redact("GET /x?api_key=abc&page=2 and /y?api_key=abc") == "GET /x?api_key=***&page=2 and /y?api_key=***")
        #expect(redactor.redact("next=%2Fx%3Fapi_key%3Dabc%26page%3D2") == "next=%2Fx%3Fapi_key%3D***%26page%3D2")
        #expect(redactor.redact("api_key=abcdef, api_key=abc1, api_key=abc%41, abc, cabc") == "api_key=abcdef, api_key=abc1, api_key=abc%41, abc, cabc")
        let body = redactor.redact(body: Data(#"{"self": "/x?api_key=abc", "word": "abc", "n": "api_key=abc\u0026p=1"}"#.utf8))
        #expect(String(decoding: body, as: UTF8.self) == #"{"self": "/x?api_key=***", "word": "abc", "n": "api_key=***\u0026p=1"}"#)
        // A feed with a short key in its URL has just that secret; a long one stays a secret anywhere.
        let feed = try? Feed(template: "https://h.example/x?api_key=abc&page={page}")
        #expect(feed?.credentials(environment: [:]) == [.init(value: "api_key=abc", reference: "api_key=***", isWholeValue: true)])
        let long = try? Feed(template: "https://h.example/x?api_key=abcdefghij0123456789&page={page}")
        #expect(long?.credentials(environment: [:]) == [.init(value: "abcdefghij0123456789", reference: "***")])
    }

    @Test func queryParametersAreSecretWhenTheFeedSaysSoOrTheirNameDoes() throws {
        for name in ["api_key", "api-key", "apiKey", "key", "access_token", "appid", "sig", "client_secret", "X-Auth"] {
            #expect(Feed.isCredentialName(name), "\(name)")
        }
        for name in ["per_page", "page", "q", "sort", "monkey", "keyword", "limit"] {
            #expect(!Feed.isCredentialName(name), "\(name)")
        }
        let byName = try Feed(template: "https://x.org/{page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                              query: ["per_page": "${PER_PAGE}", "api_key": "${KEY}"])
        #expect(byName.credentials(environment: ["PER_PAGE": "50", "KEY": "k-1"]) == [.init(value: "k-1", reference: "${KEY}")])
        var listed = byName
        listed.secrets = ["per_page"]
        #expect(listed.credentials(environment: ["PER_PAGE": "50", "KEY": "k-1"]) == [.init(value: "50", reference: "${PER_PAGE}")])
    }
}
