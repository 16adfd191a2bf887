import Foundation
import RiffleTestSupport
import Testing
@testable import DemoServer

@Suite("HTTPServer", .offThePool)
struct HTTPServerTests {
    private func echoServer() throws -> HTTPServer {
        try HTTPServer { request in
            switch request.path {
            case "/echo": .init(status: 200, headers: [("Content-Type", "application/octet-stream")], body: request.body)
            case "/empty": .init(status: 204, body: Data("ignored".utf8))
            case "/not-modified": .init(status: 304, headers: [("ETag", "\"x\"")], body: Data("ignored".utf8))
            case "/close": .text("bye", headers: [("Connection", "close")])
            default: .text("\(request.method) \(request.path) \(request.query("q") ?? "-")")
            }
        }
    }

    @Test func aGetIsAnsweredAndRecorded() throws {
        let server = try echoServer()
        defer { server.stop() }

        let response = try TestHTTP.get(server.url("/hello?q=a%20b+c&x=1"), headers: ["X-Test": "yes"])

        #expect(response.status == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "GET /hello a b c")
        #expect(server.requestCount == 1)
        let request = try #require(server.requests.first)
        #expect(request.target == "/hello?q=a%20b+c&x=1")
        #expect(request.queryItems.map(\.name) == ["q", "x"])
        #expect(request.header("x-TEST") == "yes")
        #expect(request.headers.allSatisfy { $0.name == $0.name.lowercased() })
    }

    @Test func sequentialRequestsReuseOneConnection() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        for index in 1...5 {
            client.send(TestHTTP.request("GET", "/n?q=\(index)"))
            let reply = try #require(client.readReply())
            #expect(String(decoding: reply.body, as: UTF8.self) == "GET /n \(index)")
        }

        #expect(server.requestCount == 5)
        #expect(server.connectionCount == 1)
    }

    @Test func postBodyIsEchoed() throws {
        let server = try echoServer()
        defer { server.stop() }
        let payload = Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let client = try #require(RawClient(port: server.port))

        client.send(TestHTTP.request("POST", "/echo", body: payload))
        client.send(payload)
        let reply = try #require(client.readReply())

        #expect(reply.status == 200)
        #expect(reply.body == payload)
        #expect(server.requests.first?.method == "POST")
        #expect(server.requests.first?.body.count == payload.count)
    }

    @Test func expectContinueGetsInterimResponseBeforeBody() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n")
        let interim = try #require(client.readReply(bodyExpected: false))
        client.send("hello")
        let final = try #require(client.readReply())

        #expect(interim.status == 100)
        #expect(final.status == 200)
        #expect(String(decoding: final.body, as: UTF8.self) == "hello")
    }

    @Test func headAnd204And304SendNoBodyAndKeepTheConnectionUsable() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("HEAD /x HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try #require(client.readReply(bodyExpected: false))
        client.send("GET /empty HTTP/1.1\r\nHost: x\r\n\r\n")
        let empty = try #require(client.readReply(bodyExpected: false))
        client.send("GET /not-modified HTTP/1.1\r\nHost: x\r\n\r\n")
        let notModified = try #require(client.readReply(bodyExpected: false))
        client.send("GET /after HTTP/1.1\r\nHost: x\r\n\r\n")
        let after = try #require(client.readReply())

        #expect(head.status == 200 && head.headers["content-length"] == "9")
        #expect(empty.status == 204 && empty.headers["content-length"] == nil)
        #expect(notModified.status == 304 && notModified.headers["etag"] == "\"x\"")
        #expect(String(decoding: after.body, as: UTF8.self) == "GET /after -")
        #expect(server.connectionCount == 1)
    }

    @Test func theRequestLogKeepsTheNewestUpToItsLimit() throws {
        let server = try HTTPServer(requestLogLimit: 4) { .text("\($0.path)\n") }
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))
        for n in 1...11 {
            client.send("GET /\(n) HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readReply()?.status == 200)
        }
        #expect(server.requests.map(\.path) == ["/8", "/9", "/10", "/11"])
        #expect(server.requestCount == 11)
        let times = server.requests.map(\.receivedAt)
        #expect(times == times.sorted())
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("GET /a?q=1 HTTP/1.1\r\nHost: x\r\n\r\nGET /b?q=2 HTTP/1.1\r\nHost: x\r\n\r\n")

        #expect(client.readReply().map { String(decoding: $0.body, as: UTF8.self) } == "GET /a 1")
        #expect(client.readReply().map { String(decoding: $0.body, as: UTF8.self) } == "GET /b 2")
    }

    @Test(arguments: [
        "GET /x HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /x HTTP/1.0\r\n\r\n",
        "GET /close HTTP/1.1\r\nHost: x\r\n\r\n",
    ])
    func connectionCloseIsHonoured(request: String) throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send(request)
        let reply = try #require(client.readReply())

        #expect(reply.headers["connection"] == "close")
        #expect(client.wasClosedByServer())
    }

    @Test func http10KeepAliveIsHonoured() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let first = try #require(client.readReply())
        client.send("GET /b HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        let second = try #require(client.readReply())

        #expect(first.headers["connection"] == "keep-alive")
        #expect(String(decoding: second.body, as: UTF8.self) == "GET /b -")
    }

    @Test func chunkedBodiesAreRefused() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n")

        #expect(client.readReply()?.status == 411)
        #expect(server.requestCount == 0)
    }

    @Test func malformedHeadGets400() throws {
        let server = try echoServer()
        defer { server.stop() }
        let client = try #require(RawClient(port: server.port))

        client.send("NONSENSE\r\n\r\n")

        #expect(client.readReply()?.status == 400)
    }

    @Test func stopRefusesNewConnectionsAndClosesOpenOnes() throws {
        let server = try echoServer()
        let idle = try #require(RawClient(port: server.port))
        idle.send("GET /warm HTTP/1.1\r\nHost: x\r\n\r\n")
        _ = try #require(idle.readReply())

        server.stop()

        #expect(idle.wasClosedByServer())
        #expect(RawClient(port: server.port) == nil)
        #expect(errno == ECONNREFUSED)
        #expect(throws: TestHTTP.Failure.self) { try TestHTTP.get(server.url("/late")) }
        #expect(!server.isRunning)
    }

    @Test func stopEndsAResponseThatIsStillDelayed() throws {
        let arrived = DispatchSemaphore(value: 0)
        let server = try HTTPServer { _ in
            arrived.signal()
            return .text("too late").delayed(by: .seconds(3_600))
        }
        let client = try #require(RawClient(port: server.port))
        client.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        try #require(arrived.wait(timeout: .now() + 10) == .success, "the request never reached the handler")

        let started = ContinuousClock.now
        server.stop()

        // Not the hour of the delay, nor the 5 s `stop` gives its threads at most.
        #expect(ContinuousClock.now - started < .seconds(4))
        #expect(client.readReply() == nil)
    }

    @Test func delayPostponesTheAnswer() throws {
        let server = try HTTPServer { _ in .text("ok").delayed(by: .milliseconds(200)) }
        defer { server.stop() }

        let started = ContinuousClock.now
        let reply = try TestHTTP.get(server.url("/"))

        #expect(ContinuousClock.now - started >= .milliseconds(200))
        #expect(reply.body == Data("ok".utf8))
    }

    @Test func requestParsing() {
        let request = HTTPServer.Request(method: "GET", target: "http://h:1/p%2Fq?a=%E6%97%A5&b&c=1+2&a=2",
                                         headers: [("X-One", "1"), ("x-one", "2")])

        #expect(request.path == "/p%2Fq")
        #expect(request.queryItems.map(\.name) == ["a", "b", "c", "a"])
        #expect(request.queryItems.map(\.value) == ["日", "", "1 2", "2"])
        #expect(request.header("X-ONE") == "1, 2")
    }
}
