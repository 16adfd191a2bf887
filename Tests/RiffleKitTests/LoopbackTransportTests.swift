import DemoServer
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization
import Testing
@testable import RiffleKit

/// Runs `body` and returns the `RiffleError` it threw, or nil.
private func failure(_ body: () async throws(RiffleError) -> HTTPResponse) async -> RiffleError? {
    do { _ = try await body(); return nil } catch { return error }
}

/// A request to `url` with a timeout in seconds (fractions honoured by LoopbackTransport).
private func request(_ url: URL, method: String = "GET", timeout: TimeInterval = 5) -> URLRequest {
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.timeoutInterval = timeout
    return request
}

/// Bytes that are not all alike, so a misplaced or dropped chunk shows.
private func pattern(_ count: Int) -> Data {
    Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 9) })
}

@Suite("LoopbackTransport: HTTP/1.1 over sockets against 127.0.0.1")
struct LoopbackTransportTests {
    @Test func aContentLengthBodyArrivesByteForByte() async throws {
        let large = pattern(1024 * 1024)
        let server = try HTTPServer { request in
            request.path == "/large" ? HTTPServer.Response(headers: [("Content-Type", "application/octet-stream")], body: large)
                : .json(#"{"ok": true}"#)
        }
        let transport = LoopbackTransport()
        let small = try await transport.send(request(server.url("/small")))
        #expect(small.status == 200)
        #expect(small.body == Data(#"{"ok": true}"#.utf8))
        #expect(small.header("Content-Type") == "application/json; charset=utf-8")
        let big = try await transport.send(request(server.url("/large")))
        #expect(big.body == large)
        #expect(big.url == server.url("/large"))
    }

    @Test func aChunkedBodyIsReassembled() async throws {
        let large = pattern(1024 * 1024)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n")
            var offset = 0
            var size = 1
            while offset < large.count {
                // Chunks of growing sizes, one with an extension, each split across writes.
                let end = min(large.count, offset + size)
                connection.write(String(end - offset, radix: 16) + (size == 1 ? ";name=value" : "") + "\r\n")
                connection.write(Array(large[offset..<end]))
                connection.write("\r\n")
                offset = end
                size = min(size * 4, 100_000)
            }
            connection.write("0\r\nX-Trailer: ignored\r\n\r\n")
            connection.waitForClose()
        }
        let response = try await LoopbackTransport().send(request(listener.url()))
        #expect(response.body == large)
        #expect(response.header("transfer-encoding") == "chunked")
    }

    @Test func aBodyWithoutLengthRunsToTheClose() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nto the end")
        }
        let response = try await LoopbackTransport().send(request(listener.url()))
        #expect(response.body == Data("to the end".utf8))
    }

    @Test func sequentialRequestsReuseOneConnection() async throws {
        let server = try HTTPServer { request in .text("page \(request.path)") }
        let transport = LoopbackTransport()
        for number in 1...5 {
            let response = try await transport.send(request(server.url("/\(number)")))
            #expect(response.body == Data("page /\(number)".utf8))
        }
        #expect(server.requestCount == 5)
        #expect(server.connectionCount == 1)
    }

    @Test func aKeptAliveConnectionTheServerClosedIsRetriedOnAFreshOne() async throws {
        // The first connection answers once, then takes the next request and closes without a word:
        // the race every keep-alive client meets when a server drops an idle connection.
        let requests = Mutex(0)
        let listener = try ScriptedListener { connection, index in
            guard connection.readRequest() != nil else { return }
            requests.withLock { $0 += 1 }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: \(index == 0 ? 5 : 6)\r\n\r\n" + (index == 0 ? "first" : "second"))
            guard index == 0, connection.readRequest() != nil else { return }
            requests.withLock { $0 += 1 }
        }
        let transport = LoopbackTransport()
        #expect(try await transport.send(request(listener.url())).body == Data("first".utf8))
        #expect(try await transport.send(request(listener.url())).body == Data("second".utf8))
        #expect(listener.connectionCount == 2)
        #expect(requests.withLock { $0 } == 3)
    }

    @Test func aPostOnAClosedKeptAliveConnectionIsNotSentTwice() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
            _ = connection.readRequest()
        }
        let transport = LoopbackTransport()
        _ = try await transport.send(request(listener.url()))
        var post = request(listener.url(), method: "POST")
        post.httpBody = Data("{}".utf8)
        let error = await failure { () async throws(RiffleError) in try await transport.send(post) }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(listener.port)", reason: RiffleError.connectionLostReason))
        #expect(listener.connectionCount == 1)
    }

    @Test func aClosedPortCannotConnect() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let url = server.url("/x")
        server.stop()
        let error = await failure { () async throws(RiffleError) in try await LoopbackTransport().send(request(url)) }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(server.port)", reason: "connection refused"))
    }

    @Test func aServerThatNeverAnswersTimesOut() async throws {
        let listener = try ScriptedListener { connection, _ in
            _ = connection.readRequest()
            connection.waitForClose()
        }
        let error = await failure { () async throws(RiffleError) in
            try await LoopbackTransport().send(request(listener.url(), timeout: 0.2))
        }
        #expect(error == .timedOut(host: "127.0.0.1:\(listener.port)"))
    }

    @Test func cancellingTheTaskClosesTheSocket() async throws {
        let (events, sink) = AsyncStream.makeStream(of: String.self)
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            sink.yield("request")
            connection.waitForClose()
            sink.yield("closed")
        }
        let task = Task { () async throws(RiffleError) -> HTTPResponse in
            try await LoopbackTransport().send(request(listener.url(), timeout: 60))
        }
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == "request")
        task.cancel()
        guard case .failure(let error) = await task.result else { Issue.record("the transfer finished"); return }
        #expect(error as? RiffleError == .cancelled)
        #expect(await iterator.next() == "closed")
    }

    @Test func redirectsAreFollowedOnLoopback() async throws {
        let server = try HTTPServer { request in
            switch request.path {
            case "/a": HTTPServer.Response(status: 302, headers: [("Location", "/b?x=1")])
            case "/b": HTTPServer.Response(status: 301, headers: [("Location", "http://localhost:\(request.header("host")!.split(separator: ":")[1])/c")])
            case "/post": HTTPServer.Response(status: 303, headers: [("Location", "/c")])
            case "/keep": HTTPServer.Response(status: 307, headers: [("Location", "/c")])
            case "/loop": HTTPServer.Response(status: 302, headers: [("Location", "/loop")])
            default: .text("\(request.method) \(request.target) \(request.body.count)")
            }
        }
        let transport = LoopbackTransport()
        let response = try await transport.send(request(server.url("/a")))
        #expect(response.body == Data("GET /c 0".utf8))
        #expect(response.url.absoluteString == "http://localhost:\(server.port)/c")
        #expect(server.requests.map(\.target) == ["/a", "/b?x=1", "/c"])

        var post = request(server.url("/post"), method: "POST")
        post.httpBody = Data("body".utf8)
        #expect(try await transport.send(post).body == Data("GET /c 0".utf8))
        post.url = server.url("/keep")
        #expect(try await transport.send(post).body == Data("POST /c 4".utf8))

        server.resetLog()
        let error = await failure { () async throws(RiffleError) in try await transport.send(request(server.url("/loop"))) }
        #expect(error == .transport("too many redirects (over 10) from 127.0.0.1:\(server.port)"))
        #expect(server.requestCount == 11)
    }

    @Test func aRedirectOffLoopbackIsHandedToTheFallback() async throws {
        let server = try HTTPServer { _ in HTTPServer.Response(status: 302, headers: [("Location", "https://example.invalid/feed")]) }
        let fallback = RecordingTransport()
        let response = try await LoopbackTransport(fallback: fallback).send(request(server.url("/")))
        #expect(response.status == 299)
        #expect(fallback.urls == [URL(string: "https://example.invalid/feed")!])
        // Without a fallback the redirect itself is the answer.
        #expect(try await LoopbackTransport().send(request(server.url("/"))).status == 302)
    }

    @Test func notModifiedHasNoBodyWhateverItsHeadersSay() async throws {
        // A 304 may repeat the entity's Content-Length; reading a body for it would hang.
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 304 Not Modified\r\nETag: \"v1\"\r\nContent-Length: 500\r\n\r\n")
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nnext")
            connection.waitForClose()
        }
        let transport = LoopbackTransport()
        let notModified = try await transport.send(request(listener.url(), timeout: 2))
        #expect(notModified.status == 304)
        #expect(notModified.body.isEmpty)
        #expect(notModified.header("etag") == "\"v1\"")
        #expect(try await transport.send(request(listener.url(), timeout: 2)).body == Data("next".utf8))
        #expect(listener.connectionCount == 1)
    }

    @Test func headHasNoBody() async throws {
        let server = try HTTPServer { _ in .text(String(repeating: "x", count: 1000)) }
        let transport = LoopbackTransport()
        let head = try await transport.send(request(server.url("/"), method: "HEAD"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("content-length") == "1000")
        #expect(try await transport.send(request(server.url("/"))).body.count == 1000)
        #expect(server.connectionCount == 1)
    }

    @Test func theRequestCarriesMethodTargetHostHeadersAndBody() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        var post = request(server.url("/items/caf%C3%A9?page=2&q=a%20b"), method: "POST")
        post.setValue("application/json", forHTTPHeaderField: "Content-Type")
        post.setValue("Bearer t", forHTTPHeaderField: "Authorization")
        post.httpBody = Data(#"{"a":1}"#.utf8)
        _ = try await LoopbackTransport().send(post)
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.target == "/items/caf%C3%A9?page=2&q=a%20b")
        #expect(received.version == "HTTP/1.1")
        #expect(received.header("host") == "127.0.0.1:\(server.port)")
        #expect(received.header("content-type") == "application/json")
        #expect(received.header("authorization") == "Bearer t")
        #expect(received.header("content-length") == "7")
        #expect(received.header("accept-encoding") == nil)
        #expect(received.body == Data(#"{"a":1}"#.utf8))
    }

    @Test func repeatedResponseHeadersAreJoined() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("HTTP/1.1 200 OK\r\nX-Tag: a\r\nx-tag: b\r\nContent-Length: 0\r\n\r\n")
            connection.waitForClose()
        }
        #expect(try await LoopbackTransport().send(request(listener.url())).headers["x-tag"] == "a, b")
    }

    @Test func aResponseWrittenInOddPiecesWithLooseHeadersArrivesIntact() async throws {
        let body = pattern(200_000)
        let head = "HTTP/1.1 200 OK\nX-Folded: first\n \t second\nX-Padded: \t value \t\nCONTENT-length: \(body.count)\n\n"
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            // Bare LF line ends, the head cut mid-line and mid-terminator, the body in uneven pieces.
            let bytes = Array(head.utf8) + Array(body)
            var offset = 0
            for size in [7, 1, 30, 3, 5000, 1, 70_000] + Array(repeating: 90_000, count: 3) where offset < bytes.count {
                let end = min(bytes.count, offset + size)
                connection.write(Array(bytes[offset..<end]))
                offset = end
            }
            connection.waitForClose()
        }
        let response = try await LoopbackTransport().send(request(listener.url()))
        #expect(response.headers["x-folded"] == "first second")
        #expect(response.headers["x-padded"] == "value")
        #expect(response.body == body)
    }

    @Test func anAnswerSentBeforeAnUploadEndsIsReturned() async throws {
        // The server refuses a large body after its first bytes and closes without reading the rest,
        // which resets the connection under the client's writes: the 413 is the answer, not the reset.
        let listener = try ScriptedListener { connection, _ in
            connection.readSome()
            connection.write("HTTP/1.1 413 Content Too Large\r\nContent-Length: 9\r\nConnection: close\r\n\r\ntoo large")
        }
        var upload = request(listener.url("/upload"), method: "POST")
        upload.httpBody = Data(count: 8 * 1024 * 1024)
        let response = try await LoopbackTransport().send(upload)
        #expect(response.status == 413)
        #expect(response.body == Data("too large".utf8))
    }

    @Test func aMalformedStatusLineIsAOneLineTransportError() async throws {
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            connection.write("SPDY/9 hello\r\nContent-Length: 0\r\n\r\n")
            connection.waitForClose()
        }
        let error = await failure { () async throws(RiffleError) in try await LoopbackTransport().send(request(listener.url())) }
        #expect(error == .transport("malformed HTTP response from 127.0.0.1:\(listener.port): status line \"SPDY/9 hello\""))
    }

    @Test func downloadProgressRisesToTheTotal() async throws {
        let body = pattern(300_000)
        let server = try HTTPServer { _ in HTTPServer.Response(body: body) }
        let steps = Mutex<[TransferProgress]>([])
        let response = try await LoopbackTransport().send(request(server.url("/"))) { step in steps.withLock { $0.append(step) } }
        let seen = steps.withLock { $0 }
        #expect(response.body == body)
        #expect(!seen.isEmpty)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.completed <= $1.completed })
        #expect(seen.last == TransferProgress(direction: .download, completed: 300_000, expected: 300_000))
    }

    @Test func onlyPlainHTTPToLoopbackIsSentOverSockets() {
        func sends(_ text: String) -> Bool { LoopbackTransport.canSend(URLRequest(url: URL(string: text)!)) }
        #expect(sends("http://127.0.0.1:8080/feed"))
        #expect(sends("http://127.1.2.3/"))
        #expect(sends("http://localhost:3000/api"))
        #expect(sends("http://LOCALHOST/"))
        #expect(sends("http://[::1]:8080/"))
        #expect(!sends("https://127.0.0.1/"))
        #expect(!sends("https://localhost/"))
        #expect(!sends("http://example.com/"))
        #expect(!sends("http://10.0.0.1/"))
        #expect(!sends("http://128.0.0.1/"))
        #expect(!sends("http://[::2]/"))
        #expect(!sends("ftp://127.0.0.1/"))
    }

    @Test func theDefaultTransportUsesSocketsForLoopback() async throws {
        let server = try HTTPServer { _ in .text("hi") }
        let transport = DefaultTransport()
        for _ in 1...3 { #expect(try await transport.send(request(server.url("/"))).body == Data("hi".utf8)) }
        // URLSession would send Accept-Encoding; the socket transport never does.
        #expect(server.requests.allSatisfy { $0.header("accept-encoding") == nil })
        #expect(server.connectionCount == 1)
    }
}

/// Records what it was asked to send and answers 299, standing in for URLSession.
private final class RecordingTransport: HTTPTransporting {
    private let sent = Mutex<[URL]>([])
    var urls: [URL] { sent.withLock { $0 } }

    func send(_ request: URLRequest) async throws(RiffleError) -> HTTPResponse {
        sent.withLock { $0.append(request.url!) }
        return HTTPResponse(status: 299, headers: [:], body: Data(), url: request.url!)
    }
}
