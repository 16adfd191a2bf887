import DemoServer
import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

/// A `FollowOn` request leaves from the transport's thread the moment the answer before it is
/// complete, and a later `send` of the same request takes its answer; it never takes a place in a
/// limit from a request already waiting for one. Orderings as a server on 127.0.0.1 saw them.
@Suite("CurlTransport: a follow-on request leaves when the answer before it is complete")
struct CurlFollowOnTests {
    @Test func theFollowOnLeavesBeforeItIsSentAndItsSendTakesIt() async throws {
        let server = try HTTPServer { request in .json(#"{"path": "\#(request.path)"}"#) }
        defer { server.stop() }
        let transport = patientTransport()
        let next = HTTPRequest(url: server.url("/b"))
        var context = TransferContext()
        context.followOn = FollowOn { response in response.status == 200 ? (next, nil) : nil }

        let first = try await transport.send(HTTPRequest(url: server.url("/a")), context: context)
        #expect(String(decoding: first.body, as: UTF8.self) == #"{"path": "/a"}"#)
        // Nobody sent /b yet: it left when /a's answer was complete.
        #expect(await eventually(timeout: .seconds(120)) { server.requests.map(\.path) == ["/a", "/b"] })

        var same = next
        same.timeout = .seconds(7)  // the time a caller allows is not part of what it asks
        let taken = try await transport.send(same)
        #expect(String(decoding: taken.body, as: UTF8.self) == #"{"path": "/b"}"#)
        #expect(server.requests.map(\.path) == ["/a", "/b"], "the send took the answer of the request sent ahead")

        // Taken once: the same request again is sent again.
        _ = try await transport.send(next)
        #expect(server.requests.map(\.path) == ["/a", "/b", "/b"])
    }

    @Test func aFollowOnDoesNotTakeAPlaceFromARequestWaitingForOne() async throws {
        let hold = DispatchSemaphore(value: 0)
        let server = try HTTPServer { request in
            if request.path == "/a" { hold.waitForTest() }
            return .json("{}")
        }
        defer { server.stop() }
        let transport = patientTransport()
        let limit = ConcurrencyLimit(1)
        var context = TransferContext(limit: limit)
        context.followOn = FollowOn { _ in (HTTPRequest(url: server.url("/ahead")), nil) }

        let first = Task { try await transport.send(HTTPRequest(url: server.url("/a")), context: context) }
        #expect(await eventually(timeout: .seconds(120)) { server.requests.count == 1 })
        let queued = Task { try await transport.send(HTTPRequest(url: server.url("/queued")), context: TransferContext(limit: limit)) }
        // /queued waits for /a's place.
        #expect(await eventually(timeout: .seconds(120)) { limit.requestCount == 2 })
        hold.signal()
        _ = try await first.value
        _ = try await queued.value
        _ = try await transport.send(HTTPRequest(url: server.url("/after")), context: TransferContext(limit: limit))
        #expect(server.requests.map(\.path) == ["/a", "/queued", "/after"])
    }
    /// The caller may ask for the request before the answer it follows is complete (a dump asks for
    /// page 4 while page 3 arrives): the follow-on then sends nothing, and the request goes once.
    @Test func aFollowOnItsCallerSentAlreadyIsNotSentAgain() async throws {
        let (holdA, holdB) = (DispatchSemaphore(value: 0), DispatchSemaphore(value: 0))
        let server = try HTTPServer { request in
            if request.path == "/a" { holdA.waitForTest() }
            if request.path == "/b" { holdB.waitForTest() }
            return .json("{}")
        }
        defer { server.stop() }
        let transport = patientTransport()
        var context = TransferContext()
        context.followOn = FollowOn { _ in (HTTPRequest(url: server.url("/b")), nil) }

        let first = Task { try await transport.send(HTTPRequest(url: server.url("/a")), context: context) }
        #expect(await eventually { server.requests.count == 1 })
        let own = Task { try await transport.send(HTTPRequest(url: server.url("/b"))) }
        #expect(await eventually { server.requests.count == 2 })
        // /a's answer completes while /b is on its way: what follows /a is /b, asked for already.
        holdA.signal()
        _ = try await first.value
        holdB.signal()
        holdB.signal()  // a second /b, were one sent, must not hold the server for the test's length
        _ = try await own.value
        // A third request after both, on a connection of its own: the server has read what came before.
        _ = try await transport.send(HTTPRequest(url: server.url("/c")))
        #expect(server.requests.map(\.path) == ["/a", "/b", "/c"])
    }
}
