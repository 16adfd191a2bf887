import Foundation
import Testing
import RiffleJSON
@testable import RiffleHTTP

/// Every message a request's failure can show, read as a person reads a toast: one line, plain words,
/// grammatical, and "offline" only when the network or the host was unreachable.
@Suite("Error messages: every RiffleError and every CURLcode, in words")
struct ErrorMessageTests {
    static let url = URL(string: "https://feeds.example.org:8443/items?page=2")!

    /// One of every case, with the texts their makers put in.
    static let samples: [RiffleError] = [
        .cannotConnect(host: "feeds.example.org", reason: "connection refused"), .dnsFailure(host: "feeds.example.org"), .offline,
        .timedOut(host: "feeds.example.org"), .stalled(host: "feeds.example.org", seconds: 20),
        .cutShort(host: "feeds.example.org", received: 495, expected: 990, ending: .closed),
        .cutShort(host: "feeds.example.org", received: 1, expected: nil, ending: .closed),
        .cutShort(host: "feeds.example.org", received: 495, expected: 990, ending: .timedOut),
        .cutShort(host: "feeds.example.org", received: 495, expected: nil, ending: .stalled(seconds: 20)),
        .cutShort(host: "feeds.example.org", received: 3080, expected: nil, ending: .midJSON),
        .tls(host: "feeds.example.org", reason: "certificate has expired"), .httpStatus(code: 503, excerpt: "busy"),
        .invalidJSON(offset: 12, reason: "unexpected character"), .validation(path: "$.items", expected: "array", actual: "null"),
        .envelope(message: "invalid_auth"), .cancelled, .notCached, .duplicate, .storage(path: "/tmp/x", reason: "disk full"),
        .badResponse(host: "feeds.example.org", reason: "not an HTTP answer"), .tooLarge(what: "response body", limit: 64 << 20),
        .tooLarge(what: "response headers", limit: 256 << 10), .tooManyRedirects(host: "feeds.example.org", limit: 5),
        .unsupportedScheme("ftp"), .invalidHeader(name: "X-Token"), .transport("no secondary base URL configured for /x"),
    ]

    /// Every CURLcode libcurl defines (0 is success), as the transport maps it when libcurl wrote no
    /// detail of its own: the case where a bare number used to show.
    static let curlErrors: [(code: Int32, error: RiffleError)] = (1...101).map {
        ($0, RiffleError.curl(code: $0, osError: 0, detail: "", url: url))
    }

    @Test func everyMessageIsOneLineOfWords() {
        for error in Self.samples + Self.curlErrors.map(\.error) {
            let text = error.description
            #expect(!text.isEmpty && !text.contains("\n") && text.count < 200, "\(text)")
            #expect(text.contains { $0.isLetter }, "\(text)")
        }
    }

    @Test func noCURLcodeIsABareNumber() {
        for (code, error) in Self.curlErrors {
            let text = error.description
            #expect(!text.contains("libcurl error"), "\(code): \(text)")
            // Unmapped codes read libcurl's own words, then the code for a bug report.
            if case .transport = error, text.hasPrefix("feeds.example.org:8443: ") {
                let words = text.dropFirst("feeds.example.org:8443: ".count)
                #expect(words.first?.isLetter == true && !words.hasPrefix("Unknown error"), "\(code): \(text)")
                #expect(text.hasSuffix("(CURLcode \(code))"), "\(code): \(text)")
            }
        }
        #expect(Self.curlErrors[26].error.description == "feeds.example.org:8443: Out of memory (CURLcode 27)")
        // A code this libcurl has no words for (retired, or newer than it) gets words of ours.
        #expect(RiffleError.curlWords(20).hasSuffix("(CURLcode 20)") && !RiffleError.curlWords(20).contains("Unknown"))
    }

    /// A status with no standard phrase (Cloudflare's 520, a server's own 299) has no gap before its colon.
    @Test(arguments: [(520, "<html>origin down</html>", "HTTP 520: <html>origin down</html>"), (299, "", "HTTP 299"),
                      (404, "nope", "HTTP 404 Not Found: nope"), (503, "", "HTTP 503 Service Unavailable")])
    func aStatusWithoutAPhraseReadsAsTheNumber(code: Int, excerpt: String, message: String) {
        #expect(RiffleError.httpStatus(code: code, excerpt: excerpt).description == message)
    }

    @Test func pluralsTakeAPluralVerb() {
        let headers = RiffleError.tooLarge(what: "response headers", limit: 256 << 10).description
        #expect(headers == "the response headers went over the 256 KiB limit")
        for error in Self.samples + Self.curlErrors.map(\.error) {
            #expect(!error.description.contains("headers is"), "\(error)")
        }
    }

    /// An error page quoted in a message reads as a terminal would show it: each escape sequence
    /// (CSI, OSC, DCS, in 7 or 8 bits, ended or not) is left out whole, other controls become a space.
    @Test(arguments: [
        ("\u{1B}[31mNot found\u{1B}[0m", "Not found"),
        ("\u{9B}2Jcleared \u{9B}?25l", "cleared"),
        ("a\u{1B}]52;c;aGFja2Vk\u{07}b", "ab"),
        ("a\u{9D}0;title\u{9C}b \u{1B}]0;x\u{1B}\\c", "ab c"),
        ("\u{1B}P1$r0m\u{1B}\\ok \u{1B}(B\u{1B}=\u{1B}c", "ok"),
        ("tab\tnew\r\nline\u{07}", "tab new line"),
        ("cut \u{1B}]0;a title never ended", "cut"),
        ("an OSC cut by \u{1B}]0;t\u{1B}[1mESC", "an OSC cut by ESC"),
        ("ends in ESC\u{1B}", "ends in ESC"),
    ])
    func anErrorPageIsQuotedWithoutItsEscapeSequences(body: String, quoted: String) {
        #expect(RiffleError.excerpt(Data(body.utf8)) == quoted)
    }

    /// A body that is not JSON is quoted from where reading stopped, as one printable line of at most
    /// 40 characters; nothing is quoted when the body ended too soon.
    @Test func invalidJSONQuotesTheBodyWhereReadingStopped() {
        func message(_ body: Data) -> String? {
            do { _ = try JSONParser.parse(body); return nil } catch { return RiffleError.invalidJSON(error, in: body).description }
        }
        #expect(message(Data("<html>\r\n<body>\u{1B}[2J Oops</body></html>".utf8))
                == #"invalid JSON at byte 0: unexpected character near "<html> <body> Oops</body></html>""#)
        #expect(message(Data(("[1, " + String(repeating: "x", count: 60)).utf8))
                == "invalid JSON at byte 4: unexpected character near \"" + String(repeating: "x", count: 40) + "…\"")
        #expect(message(Data("[1,".utf8)) == "invalid JSON at byte 3: unexpected end of data")
        // A slice of a larger buffer reads from its own start.
        #expect(message(Data("xx<p>".utf8).dropFirst(2)) == #"invalid JSON at byte 0: unexpected character near "<p>""#)
    }

    @Test func aTimeoutIsNeverOffline() {
        for error in Self.samples + Self.curlErrors.map(\.error) where error.isOffline {
            // Offline is no route, no name, or no connection: never a wait that ran out.
            switch error {
            case .cannotConnect, .dnsFailure, .offline: break
            default: Issue.record("\(error) is called offline")
            }
            #expect(!error.description.contains("timed out"), "\(error)")
        }
        #expect(!RiffleError.timedOut(host: "h").isOffline && RiffleError.timedOut(host: "h").isConnectivityFailure)
        #expect(!RiffleError.stalled(host: "h", seconds: 20).isOffline)
        #expect(!RiffleError.curl(code: 28, osError: 0, detail: "", url: Self.url).isOffline)
        #expect(!RiffleError.curl(code: 7, osError: 110, detail: "", url: Self.url).isOffline)  // ETIMEDOUT while connecting
        #expect(RiffleError.curl(code: 7, osError: 101, detail: "", url: Self.url).isOffline)   // ENETUNREACH
    }
}
