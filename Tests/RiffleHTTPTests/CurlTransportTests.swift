import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

/// The one transport, against servers on 127.0.0.1 that misbehave in the ways real ones do.
@Suite("CurlTransport against servers on 127.0.0.1")
struct CurlTransportTests {
    let transport = CurlTransport()

    private func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: try #require(Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures")))
    }

    /// A listener that reads one request and answers with `head` (CRLFs added) and `body` on each connection.
    private func answering(_ head: [String], _ body: Data = Data()) throws -> ScriptedListener {
        try ScriptedListener { connection, _ in
            while connection.readRequest() != nil {
                connection.write(head.joined(separator: "\r\n") + "\r\n\r\n")
                connection.write(Array(body))
            }
        }
    }

    // MARK: Bodies

    @Test func gzipAndDeflateBodiesArriveDecoded() async throws {
        let gzip = Data(base64Encoded: "H4sIAHbgDmsC/6tWyixJzS1WslKIrlYqySzJSQUyldKrYkoNDFItlWpjawE2AZqBIgAAAA==")!
        let deflate = Data(base64Encoded: "eJyrVsosSc0tVrJSiK5WKsksyUkFMpVSUtNyEktSU5RqY2sByBALpg==")!
        let seen = Mutex<[String]>([])
        let server = try HTTPServer { request in
            seen.withLock { $0.append(request.header("Accept-Encoding") ?? "") }
            let body = request.path == "/gzip" ? gzip : deflate
            return .json(body, headers: [("Content-Encoding", request.path == "/gzip" ? "gzip" : "deflate")])
        }
        let zipped = try await transport.send(HTTPRequest(url: server.url("/gzip")))
        #expect(String(decoding: zipped.body, as: UTF8.self) == #"{"items": [{"title": "gz\u00e9"}]}"#)
        let deflated = try await transport.send(HTTPRequest(url: server.url("/deflate")))
        #expect(String(decoding: deflated.body, as: UTF8.self) == #"{"items": [{"title": "deflated"}]}"#)
        // libcurl offers what it can decode.
        #expect(seen.withLock { $0 }.allSatisfy { $0.contains("gzip") && $0.contains("deflate") })
    }

    /// Two gzip members one after the other (what `cat a.gz b.gz` makes): libcurl decodes the first
    /// and fails on the rest with CURLE_WRITE_ERROR, which read "Failed writing received data to
    /// disk/application", a fault of this machine's; it is the server's answer that does not decode.
    @Test func bytesAfterTheEndOfAGzipStreamAreABadAnswerNotAWriteFailure() async throws {
        // gzip of `[1,` then gzip of `2]`.
        let first = Data(base64Encoded: "H4sIAAAAAAACA4s21AEAEnMtawMAAAA=")!
        let second = Data(base64Encoded: "H4sIAAAAAAACAzOKBQDHa3O5AgAAAA==")!
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Type: application/json", "Content-Encoding: gzip",
                                      "Content-Length: \(first.count + second.count)"], first + second)
        let error = await riffleError { () async throws(RiffleError) in try await transport.send(HTTPRequest(url: listener.url())) }
        #expect(error == .badResponse(host: "127.0.0.1:\(listener.port)", reason: "the body's Content-Encoding does not decode"))
        #expect(error?.description == "bad answer from 127.0.0.1:\(listener.port): the body's Content-Encoding does not decode")
    }

    @Test func aChunkedBodyWithTrailersIsReadWhole() async throws {
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Type: application/json", "Transfer-Encoding: chunked",
                                      "Trailer: X-Checksum"],
                                     Data("7\r\n{\"a\": [\r\n5\r\n1, 2]\r\n1\r\n}\r\n0\r\nX-Checksum: abc\r\n\r\n".utf8))
        let response = try await transport.send(HTTPRequest(url: listener.url("/chunked")))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"a": [1, 2]}"#)
        #expect(response.header("x-checksum") == nil)  // a trailer is not part of the head
        #expect(response.header("Content-Type") == "application/json")
    }

    @Test func headerNamesAreReadInAnyCaseAndValuesWithoutTheSpacesAroundThem() async throws {
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Length: 2", "X-RateLimit-Remaining: \t 4999 \t",
                                      "ETAG:\"v1\"", "X-Note:  two  words  ", "X-Nbsp: kept\u{A0}", "X-Empty:   ",
                                      "X-Folded: first", " \t second", "Vary: Accept", "vary: Cookie"], Data("{}".utf8))
        let response = try await transport.send(HTTPRequest(url: listener.url()))
        #expect(response.header("x-ratelimit-remaining") == "4999")
        #expect(response.header("ETag") == "\"v1\"")
        #expect(response.header("x-note") == "two  words", "spaces inside a value stay")
        #expect(response.header("x-nbsp") == "kept\u{A0}", "only spaces and tabs are HTTP's white space")
        #expect(response.header("x-empty") == "")
        #expect(response.header("x-folded") == "first second")
        #expect(response.header("vary") == "Accept, Cookie", "a field sent twice is one list")
        #expect(response.headers.keys.allSatisfy { $0 == $0.lowercased() })
    }

    @Test func informationalAnswersBeforeTheRealOneAreSkipped() async throws {
        let listener = try answering(["HTTP/1.1 100 Continue", "", "HTTP/1.1 103 Early Hints", "Link: </style.css>; rel=preload", "",
                                      "HTTP/1.1 200 OK", "Content-Length: 2", "X-Final: yes"], Data("{}".utf8))
        let response = try await transport.send(HTTPRequest(url: listener.url()))
        #expect(response.status == 200)
        #expect(response.header("x-final") == "yes")
        #expect(response.header("link") == nil)
        #expect(response.body == Data("{}".utf8))
    }

    @Test func aBodyLongerThanItsLengthIsCutAndTheRestNeverReadAsAnAnswer() async throws {
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Length: 2"], Data("{}garbage".utf8))
        let response = try await transport.send(HTTPRequest(url: listener.url()))
        #expect(response.body == Data("{}".utf8))
        // The leftover bytes on that connection are no answer: a GET through the client gets its own.
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = { _ in }
        let client = Client(configuration, transport: transport)
        for _ in 0..<3 {
            #expect(try await client.send(Endpoint.bytes(.get, "/")).value == Data("{}".utf8))
        }
    }

    /// A port that answers with something other than HTTP (an SSH server's banner, a status line
    /// that is no status) is a bad answer from it, asked once: not a lost connection, tried three times.
    @Test(arguments: ["SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", "HTTP/1.1 2000 OK\r\nContent-Length: 2\r\n\r\n{}"])
    func anAnswerThatIsNotHTTPIsABadAnswerAskedOnce(answer: String) async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write(answer)
        }
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = { _ in }
        let error = await riffleError { () async throws(RiffleError) in
            try await Client(configuration, transport: transport).send(Endpoint<JSONValue>(.get, "/"))
        }
        #expect(error == .badResponse(host: "127.0.0.1:\(listener.port)", reason: "not an HTTP answer"))
        #expect(error?.description == "bad answer from 127.0.0.1:\(listener.port): not an HTTP answer")
        #expect(listener.connectionCount == 1)
    }

    /// A chunked body whose chunk sizes do not read (a size that is no hex number, a chunk longer than
    /// its size) is a bad answer from the server, asked once: libcurl reports it as a receive error,
    /// which read "lost the connection" and was asked three times, getting the same answer each time.
    /// A connection reset mid-body stays a lost connection (`aResetMidBodyIsALostConnection...`).
    @Test(arguments: ["ZZZ\r\n{}\r\n0\r\n\r\n", "2\r\n[{\"id\": 1}]\r\n0\r\n\r\n"])
    func aBrokenChunkedBodyIsABadAnswerAskedOnce(chunks: String) async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n" + chunks)
        }
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = { _ in }
        let error = await riffleError { () async throws(RiffleError) in
            try await Client(configuration, transport: transport).send(Endpoint<JSONValue>(.get, "/"))
        }
        #expect(error == .badResponse(host: "127.0.0.1:\(listener.port)", reason: RiffleError.brokenChunksReason))
        #expect(error?.description == "bad answer from 127.0.0.1:\(listener.port): the body's chunked encoding does not read")
        #expect(listener.connectionCount == 1)
    }

    /// A connection reset in the middle of a chunked body is a lost connection, as before: tried again
    /// on a fresh one, where a broken chunk above is asked once. What this test holds is the kind of
    /// error: how many connections it takes is not asserted, since in the whole suite's parallel run
    /// it made three, two or one (2026-12-04, CI among them), a count not yet understood.
    @Test func aResetMidBodyIsALostConnectionNotABadAnswer() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[{\r\n")
            // Closed with SO_LINGER 0: the peer gets a reset, not an orderly end.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        }
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = { _ in }
        let error = await riffleError { () async throws(RiffleError) in
            try await Client(configuration, transport: transport).send(Endpoint<JSONValue>(.get, "/"))
        }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(listener.port)", reason: RiffleError.connectionLostReason))
    }

    /// A body shorter than its `Content-Length`, the connection closed: the answer was cut short and
    /// the error says how much of it came (as sent: for a gzip body, its compressed bytes).
    @Test func aBodyShorterThanItsLengthSaysHowMuchArrived() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\": 1")
        }
        let error = await riffleError { () async throws(RiffleError) in try await transport.send(HTTPRequest(url: listener.url())) }
        #expect(error == .cutShort(host: "127.0.0.1:\(listener.port)", received: 7, expected: 100, ending: .closed))
        #expect(error?.description == "the answer from 127.0.0.1:\(listener.port) was cut short: 7 of 100 bytes arrived")
        #expect(error.map(RetryPolicy.isTransient) == true && error?.isOffline == false)
    }

    /// An answer that declares its length, sends part of it and holds the connection open waits out the
    /// request's time (curl would wait too: more may come), and then says how far it got.
    @Test func anAnswerHeldOpenShortOfItsLengthTimesOutSayingHowFarItGot() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.stallTimeout = .seconds(120)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"items\": [")
            connection.waitForClose()
        }
        let error = await riffleError { () async throws(RiffleError) in
            try await CurlTransport(configuration).send(HTTPRequest(url: listener.url(), timeout: .seconds(2)))
        }
        #expect(error == .cutShort(host: "127.0.0.1:\(listener.port)", received: 11, expected: 1000, ending: .timedOut))
        #expect(error?.description == "127.0.0.1:\(listener.port) timed out after 11 of 1000 bytes of the answer")
    }

    /// A gzip body cut short where only the connection's close ends it: libcurl reports no error (it
    /// does not check that the compressed stream ended), so the JSON stopping in the middle is what
    /// tells, and the error says the answer was cut short rather than "invalid JSON".
    @Test func aGzipAnswerCutWhereTheCloseEndsItIsCutShortNotInvalidJSON() async throws {
        // The first half of a gzip'd page of 40 items (1260 bytes of JSON); its first 373 bytes decode.
        let half = Data(base64Encoded: "H4sIAAAAAAACA23TO47CYBRD4a1Ef02Bbd5bQdMNRSTo0iH2PhRTODrprnS6T77395h/x23a76axzMvz8b3HvDxe0358dtN/FaqqGtVVg5qqB9RD1SPqseoJ9VT1jHquekG9VL2iXluDWFppbXC1lwg=")!
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\nConnection: close\r\n\r\n")
            connection.write(Array(half))
        }
        let response = try await transport.send(HTTPRequest(url: listener.url()))
        #expect(response.body.count == 373)
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = { _ in }
        let error = await riffleError { () async throws(RiffleError) in
            try await Client(configuration, transport: transport).send(Endpoint<JSONValue>(.get, "/"))
        }
        #expect(error == .cutShort(host: "127.0.0.1:\(listener.port)", received: 373, expected: nil, ending: .midJSON))
        #expect(error?.description == "the answer from 127.0.0.1:\(listener.port) was cut short: its JSON stops after 373 bytes")
    }

    @Test func aServerThatClosesKeptAliveConnectionsCostsNothing() async throws {
        // Each connection answers once, says keep-alive, and closes: the next request finds it dead.
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nConnection: keep-alive\r\nContent-Length: 2\r\n\r\n{}")
        }
        for _ in 0..<5 {
            let response = try await transport.send(HTTPRequest(url: listener.url()))
            #expect(response.status == 200)
        }
        #expect(listener.connectionCount == 5)
    }

    // MARK: Limits

    @Test func aHugeContentLengthIsAClearErrorNotACrash() async throws {
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Length: 9223372036854775807"], Data("{}".utf8))
        await #expect(throws: RiffleError.tooLarge(what: "response body", limit: 64 * 1024 * 1024)) {
            try await transport.send(HTTPRequest(url: listener.url()))
        }
        #expect(RiffleError.tooLarge(what: "response body", limit: 64 * 1024 * 1024).description
            == "the response body went over the 64 MiB limit")
    }

    @Test func bodiesOverTheLimitAreRefusedWhateverTheyClaim() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.maxBodySize = 1024 * 1024
        let limited = CurlTransport(configuration)
        let bomb = try fixture("zeros-4MiB.gz")  // 4 KB on the wire, 4 MiB decoded
        let server = try HTTPServer { request in
            switch request.path {
            case "/bomb": .json(bomb, headers: [("Content-Encoding", "gzip")])
            default: .json(Data(repeating: 0x20, count: 2 * 1024 * 1024))
            }
        }
        let tooLarge = RiffleError.tooLarge(what: "response body", limit: 1024 * 1024)
        await #expect(throws: tooLarge) { try await limited.send(HTTPRequest(url: server.url("/bomb"))) }
        await #expect(throws: tooLarge) { try await limited.send(HTTPRequest(url: server.url("/plain"))) }
        // Without a length: a chunked stream that never ends is cut at the limit too.
        let endless = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = "10000\r\n" + String(repeating: "x", count: 0x10000) + "\r\n"
            for _ in 0..<64 { connection.write(chunk) }
        }
        await #expect(throws: tooLarge) { try await limited.send(HTTPRequest(url: endless.url())) }
    }

    @Test func aHeaderFloodIsAClearError() async throws {
        let flood = (0..<4_000).map { "X-Flood-\($0): " + String(repeating: "y", count: 100) }
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Length: 2"] + flood, Data("{}".utf8))
        await #expect(throws: RiffleError.tooLarge(what: "response headers", limit: 256 * 1024)) {
            try await transport.send(HTTPRequest(url: listener.url()))
        }
    }

    /// One header line longer than libcurl takes (a 200 KB cookie or policy) reads as a header over a
    /// limit, never "Out of memory" (what libcurl before 8.6 answers it with).
    @Test func oneGiantHeaderIsAClearError() async throws {
        let listener = try answering(["HTTP/1.1 200 OK", "Content-Length: 2", "Set-Cookie: " + String(repeating: "c", count: 200_000)],
                                     Data("{}".utf8))
        await #expect {
            try await transport.send(HTTPRequest(url: listener.url()))
        } throws: { error in
            guard case .tooLarge(what: "response headers", _) = error as? RiffleError else { return false }
            return true
        }
    }

    @Test func aStalledAnswerEndsOnTheStallLimit() async throws {
        var configuration = CurlTransport.Configuration()
        configuration.stallTimeout = .seconds(1)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n{\"items\": [")
            connection.waitForClose()
        }
        // The error says which limit ended it: the stall limit (1 s), long before the request's own
        // budget (a timeout). No wall-clock bound: on a loaded machine the awaiting task may resume
        // seconds after the transfer ended.
        let error = await riffleError { () async throws(RiffleError) in
            try await CurlTransport(configuration).send(HTTPRequest(url: listener.url(), timeout: .seconds(120)))
        }
        #expect(error == .cutShort(host: "127.0.0.1:\(listener.port)", received: 11, expected: 1000, ending: .stalled(seconds: 1)))
        #expect(error?.description == "127.0.0.1:\(listener.port) stopped sending (nothing for 1 s) after 11 of 1000 bytes")
    }

    /// A program started while a connection is open (a link's browser, a clipboard tool) does not
    /// inherit it: when the transfer ends the server sees the connection close at once, not when
    /// that program exits.
    @Test func aProgramStartedDuringATransferDoesNotHoldItsConnectionOpen() async throws {
        let arrived = Mutex(false)
        let closed = Mutex(false)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            arrived.withLock { $0 = true }
            // Until the client closes (a read of 0 bytes), not until the listener's 60 s read timeout.
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let count = recv(connection.fd, &chunk, chunk.count, 0)
                if count == 0 { closed.withLock { $0 = true } }
                if count <= 0 { return }
            }
        }
        let transfer = Task { try await transport.send(HTTPRequest(url: listener.url(), timeout: .seconds(120))) }
        #expect(await eventually { arrived.withLock { $0 } })
        // A child that outlives the test's wait, started while the connection is open.
        var child: pid_t = 0
        let argv = ["/bin/sleep", "300"]
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        try #require(posix_spawn(&child, argv[0], nil, nil, cArgs, environ) == 0)
        defer {
            kill(child, SIGKILL)
            waitpid(child, nil, 0)
        }
        transfer.cancel()
        _ = await transfer.result
        #expect(await eventually { closed.withLock { $0 } }, "the connection stayed open in the child")
    }

    // MARK: Redirects

    @Test func relativeRedirectsAreFollowedAndTheAnswerSaysWhereItEnded() async throws {
        let server = try HTTPServer { request in
            switch request.path {
            case "/old": .init(status: 301, headers: [("Location", "new?x=1")])
            case "/new": .json(#"{"moved": true}"#)
            default: .text("no", status: 404)
            }
        }
        let response = try await transport.send(HTTPRequest(url: server.url("/old")))
        #expect(response.status == 200)
        #expect(response.url == server.url("/new?x=1"))
        #expect(server.requests.map(\.target) == ["/old", "/new?x=1"])
    }

    @Test func credentialsStayWithTheirOrigin() async throws {
        let elsewhere = try HTTPServer { _ in .json("{}") }
        let home = try HTTPServer { request in
            request.path == "/here" ? .init(status: 302, headers: [("Location", "/there")])
                : .init(status: 302, headers: [("Location", elsewhere.url("/away").absoluteString)])
        }
        let lines = Mutex<[String]>([])
        var configuration = CurlTransport.Configuration()
        configuration.log = { line in lines.withLock { $0.append(line) } }
        let logging = CurlTransport(configuration)
        var request = HTTPRequest(url: home.url("/here"))
        request.headers["Accept"] = "application/json"
        request.headers["Authorization"] = "Bearer topsecret"
        request.setCredential("X-Api-Key", "k3y")
        request.headers["Cookie"] = "session=1"
        _ = try await logging.send(request)
        // Same origin: everything went along.
        let second = try #require(home.requests.last)
        #expect(second.target == "/there")
        #expect(second.header("Authorization") == "Bearer topsecret" && second.header("X-Api-Key") == "k3y")
        // Another port is another origin: no credential, the rest as sent.
        let away = try #require(elsewhere.requests.first)
        #expect(away.header("Authorization") == nil && away.header("X-Api-Key") == nil && away.header("Cookie") == nil)
        #expect(away.header("Accept") == "application/json")
        _ = try await logging.send(request)
        let said = lines.withLock { $0 }
        #expect(said.count == 1, "said once per pair of origins: \(said)")
        #expect(said.first?.contains("Authorization") == true && said.first?.contains("topsecret") == false)
    }

    @Test func seeOtherTurnsAPostIntoAGetWithoutItsBody() async throws {
        let server = try HTTPServer { request in
            request.path == "/submit" ? .init(status: 303, headers: [("Location", "/result")]) : .json(#"{"method": "\#(request.method)"}"#)
        }
        let request = HTTPRequest(.post, url: server.url("/submit"), headers: ["Content-Type": "application/json"], body: Data("{}".utf8))
        let response = try await transport.send(request)
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"method": "GET"}"#)
        #expect(server.requests.last?.body.isEmpty == true)
    }

    @Test func aRedirectLoopStopsAfterFive() async throws {
        let server = try HTTPServer { _ in .init(status: 302, headers: [("Location", "/loop")]) }
        await #expect(throws: RiffleError.tooManyRedirects(host: "127.0.0.1:\(server.port)", limit: 5)) {
            try await transport.send(HTTPRequest(url: server.url("/loop")))
        }
        #expect(server.requestCount == 6)
    }

    @Test func onlyHTTPAndHTTPSAreFollowed() async throws {
        let server = try HTTPServer { _ in .init(status: 302, headers: [("Location", "ftp://127.0.0.1:\(21)/pub/items.json")]) }
        await #expect(throws: RiffleError.unsupportedScheme("ftp")) { try await transport.send(HTTPRequest(url: server.url("/"))) }
        await #expect(throws: RiffleError.unsupportedScheme("file")) {
            try await transport.send(HTTPRequest(url: URL(string: "file:///etc/passwd")!))
        }
    }

    // MARK: Requests as written

    @Test func headerNamesAreSentAsWritten() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard let head = connection.readRequest() else { return }
            let body = Data(head.utf8).base64EncodedString()
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        }
        var request = HTTPRequest(url: listener.url("/echo"))
        request.headers["token"] = "abc"
        request.headers["X-MiXeD-Case"] = "1"
        let response = try await transport.send(request)
        let head = String(decoding: Data(base64Encoded: response.body) ?? Data(), as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        #expect(lines.contains("token: abc"))
        #expect(lines.contains("X-MiXeD-Case: 1"))
        #expect(lines.contains { $0.hasPrefix("User-Agent: RiffleKit/") })
        #expect(!lines.contains { $0.hasPrefix("Expect:") })
    }

    @Test func aHeaderThatWouldSplitTheRequestIsRefusedBeforeSending() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        var request = HTTPRequest(url: server.url("/"))
        request.headers["Authorization"] = "Bearer abc\r\nX-Injected: 1"
        await #expect(throws: RiffleError.invalidHeader(name: "Authorization")) { try await transport.send(request) }
        #expect(server.requestCount == 0)
        #expect(!RiffleError.invalidHeader(name: "Authorization").description.contains("abc"))
    }

    // MARK: Progress, limits and cancellation

    @Test func progressRisesToTheTotalBothWays() async throws {
        // Large enough that libcurl reports it in several steps even on loopback.
        let answer = Data(repeating: 0x61, count: 24 * 1024 * 1024)
        let server = try HTTPServer { _ in .init(headers: [("Content-Type", "text/plain")], body: answer) }
        let upload = Data(repeating: 0x62, count: 3 * 1024 * 1024)
        let steps = Mutex<[TransferProgress]>([])
        let request = HTTPRequest(.post, url: server.url("/upload"), headers: ["Content-Type": "application/octet-stream"], body: upload)
        let response = try await transport.send(request, context: TransferContext(progress: { step in steps.withLock { $0.append(step) } }))
        #expect(response.body.count == answer.count)
        #expect(server.requests.first?.body.count == upload.count)
        let all = steps.withLock { $0 }
        for direction in [TransferProgress.Direction.upload, .download] {
            let counts = all.filter { $0.direction == direction }.map(\.completed)
            #expect(counts.count >= 2, "\(direction): \(counts)")
            #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "\(direction) went back: \(counts)")
            #expect(counts.last == Int64(direction == .upload ? upload.count : answer.count))
        }
    }

    @Test func uploadProgressIsReportedWhileTheBodyIsStillGoing() async throws {
        let server = try HeldUploadServer()
        let size = HeldUploadServer.size
        let steps = Mutex<[TransferProgress]>([])
        // A budget beyond the server's wait, so a missing step fails as one rather than as a timeout.
        let request = HTTPRequest(.post, url: server.url("/upload"), headers: ["Content-Type": "application/octet-stream"],
                                  body: Data(repeating: 0x62, count: size), timeout: .seconds(120))
        let response = try await HeldUploadServer.transport().send(request, context: TransferContext(progress: { step in
            steps.withLock { $0.append(step) }
            if step.direction == .upload { server.sawStep() }
        }))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"received": \#(size)}"#)
        #expect(!server.gaveUpWaiting, "no upload step before the body was read")
        let counts = steps.withLock { $0 }.filter { $0.direction == .upload }.map(\.completed)
        #expect(counts.first.map { $0 > 0 && $0 < Int64(size) } == true, "the first step is part of the body: \(counts)")
        #expect(zip(counts, counts.dropFirst()).allSatisfy { $0 < $1 }, "went back: \(counts)")
        #expect(counts.last == Int64(size))
    }

    @Test func transfersSharingALimitOfOneRunOneAtATime() async throws {
        let server = try HTTPServer { _ in .json("{}").delayed(by: .milliseconds(30)) }
        let limit = ConcurrencyLimit(1)
        try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<6 {
                group.addTask { try await transport.send(HTTPRequest(url: server.url("/\(n)")), context: TransferContext(limit: limit)).status }
            }
            for try await status in group { #expect(status == 200) }
        }
        #expect(server.maxConcurrentRequests == 1)
        #expect(limit.requestCount == 6)
    }

    @Test func aCancelledRequestWaitingForItsPlaceLeavesAtOnce() async throws {
        let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
        let server = try HTTPServer { request in
            if request.path == "/slow" { arrival.yield() }
            return .json("{}").delayed(by: patience * 3)
        }
        // Budgets beyond any wait of a busy suite (a land took 60 s to get here), so the slow request
        // ends by its cancellation, never by its stall or total budget.
        let transport = patientTransport()
        let limit = ConcurrencyLimit(1)
        let slow = Task {
            // Should the request never arrive, the stream ends with it (on the transport's budget).
            defer { arrival.finish() }
            return try await transport.send(HTTPRequest(url: server.url("/slow")), context: TransferContext(limit: limit))
        }
        var arrivals = arrived.makeAsyncIterator()
        #expect(await arrivals.next() != nil)
        let waiting = Task { try await transport.send(HTTPRequest(url: server.url("/queued")), context: TransferContext(limit: limit)) }
        waiting.cancel()
        await #expect(throws: RiffleError.cancelled) { try await waiting.value }
        slow.cancel()
        await #expect(throws: RiffleError.cancelled) { try await slow.value }
        // Both places are free again: a third request goes straight out.
        let quick = try HTTPServer { _ in .json("{}") }
        #expect(try await transport.send(HTTPRequest(url: quick.url("/")), context: TransferContext(limit: limit)).status == 200)
        #expect(server.requests.map(\.path) == ["/slow"])
    }

    // MARK: TLS

    @Test func aSelfSignedCertificateIsAClearErrorUntilTrusted() async throws {
        let server = try TLSTestServer()
        defer { server.stop() }
        let url = URL(string: "https://127.0.0.1:\(server.port)/")!
        do {
            _ = try await transport.send(HTTPRequest(url: url))
            Issue.record("a self-signed certificate was accepted")
        } catch {
            guard case .tls(let host, let reason) = error else { Issue.record("got \(error)"); return }
            #expect(host == "127.0.0.1:\(server.port)")
            #expect(reason.contains("self-signed") || reason.contains("self signed"), "\(reason)")
        }
        // SSL_CERT_FILE naming the certificate makes it trusted, as for curl.
        let trusting = CurlTransport(CurlTransport.Configuration(environment: ["SSL_CERT_FILE": server.certificate.path]))
        let response = try await trusting.send(HTTPRequest(url: url))
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"tls": true}"#)
    }
}

/// `Fixtures/tls/server.py`: Python's HTTPS server with a self-signed certificate for 127.0.0.1,
/// started with posix_spawn (Foundation's `Process` crashed, rarely, inside `run()` while other tests
/// forked). No pipes: a pipe end inherited by another test's child process (tests run in parallel)
/// would keep it open; the port comes back through a file.
final class TLSTestServer: Sendable {
    let port: Int
    let certificate: URL
    private let pid: pid_t
    private let folder: URL

    init() throws {
        let fixtures = try #require(Bundle.module.url(forResource: "tls", withExtension: nil, subdirectory: "Fixtures"))
        certificate = fixtures.appendingPathComponent("cert.pem")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-tls-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let portFile = folder.appendingPathComponent("port")
        // python3 from PATH, wherever this machine keeps it.
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        guard let python = path.split(separator: ":").map({ "\($0)/python3" }).first(where: FileManager.default.isExecutableFile(atPath:)) else {
            try? FileManager.default.removeItem(at: folder)
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "python3 is not on PATH (\(path)); the TLS tests need it"])
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for fd: Int32 in 0...2 { posix_spawn_file_actions_addopen(&actions, fd, "/dev/null", fd == 0 ? O_RDONLY : O_WRONLY, 0) }
        let argv = [python, fixtures.appendingPathComponent("server.py").path, portFile.path]
        let cArgs = argv.map { strdup($0) } + [nil]
        let cEnv = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (cArgs + cEnv).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, python, &actions, nil, cArgs, cEnv)
        guard spawned == 0 else {
            try? FileManager.default.removeItem(at: folder)
            throw POSIXError(POSIXErrorCode(rawValue: spawned) ?? .EIO)
        }
        self.pid = pid
        let deadline = ContinuousClock.now + .seconds(20)
        var port: Int?
        while port == nil, ContinuousClock.now < deadline, waitpid(pid, nil, WNOHANG) == 0 {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            if port == nil { usleep(20_000) }
        }
        guard let port else {
            Self.end(pid)
            try? FileManager.default.removeItem(at: folder)
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "the TLS test server (python3) did not start"])
        }
        self.port = port
    }

    /// Ends the server (SIGKILL: a child may inherit a blocked SIGTERM), reaps it within 5 s, removes its folder.
    func stop() {
        Self.end(pid)
        try? FileManager.default.removeItem(at: folder)
    }

    private static func end(_ pid: pid_t) {
        kill(pid, SIGKILL)
        let deadline = ContinuousClock.now + .seconds(5)
        while waitpid(pid, nil, WNOHANG) == 0 && ContinuousClock.now < deadline { usleep(10_000) }
    }
}
