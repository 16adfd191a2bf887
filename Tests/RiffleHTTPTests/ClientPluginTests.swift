import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

/// Counts callbacks as a loading indicator would, and records what each call looked like.
final class RecordingPlugin: ClientPlugin {
    struct State {
        var events: [String] = []
        var inFlight = 0
        var lowest = 0
        /// Calls in flight that are not tagged `.silent`, and the most there ever were.
        var visible = 0
        var mostVisible = 0
    }
    let state = Mutex(State())

    var events: [String] { state.withLock { $0.events } }
    var inFlight: Int { state.withLock { $0.inFlight } }

    private func record(_ event: String, _ call: ClientCall, change: Int) {
        state.withLock { state in
            state.events.append("\(event) \(call.name ?? "-")\(call.tags.isEmpty ? "" : " " + call.tags.map(\.rawValue).sorted().joined(separator: ","))"
                + (call.request == nil ? " (no request)" : ""))
            state.inFlight += change
            state.lowest = min(state.lowest, state.inFlight)
            if !call.tags.contains(.silent) {
                state.visible += change
                state.mostVisible = max(state.mostVisible, state.visible)
            }
        }
    }

    func willSend(_ call: ClientCall) { record("send", call, change: 1) }
    func willRetry(_ call: ClientCall, after delay: Duration, because failure: RiffleError) { record("retry", call, change: 0) }
    func didReceive(_ response: CachedResponse, for call: ClientCall, duration: Duration) { record("receive", call, change: -1) }
    func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration) { record("fail(\(error))", call, change: -1) }

    /// Waits up to `patience` for every call to finish; false if one never does.
    func settled() async -> Bool {
        let deadline = ContinuousClock.now + patience
        while inFlight != 0 {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return state.withLock { $0.lowest } == 0
    }
}

@Suite("Plugins that balance: one finishing callback per willSend on every path, against 127.0.0.1")
struct ClientPluginTests {
    let plugin = RecordingPlugin()
    let fixture: SeedFixture
    /// Answers to /slow wait for this (or 30 s), so a test can cancel mid-transfer.
    let release = DispatchSemaphore(value: 0)
    let attempts = CacheShared(0)

    init() throws {
        let release = release, attempts = attempts
        fixture = try SeedFixture { request in
            switch request.path {
            case "/slow":
                release.waitForTest()
                return .json("{}")
            case "/missing": return .json("{}", status: 404)
            case "/flaky":
                let n = attempts.withLock { $0 += 1; return $0 }
                return n < 3 ? .json("{}", status: 503) : .json(#"{"ok": true}"#)
            default: return .json(#"{"n": 1}"#)
            }
        }
    }

    func client(cached: Bool = true) -> Client {
        let plugin = plugin
        return fixture.client(cached: cached) { $0.plugins = [plugin] }
    }

    @Test func sendSucceedingFailingAndCancelledBalances() async throws {
        let client = client()
        _ = try await client.send(Endpoint<JSONValue>(.get, "/ok"))
        _ = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/missing")) }
        let slow = Task { await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/slow")) } }
        let arrived = await waitFor { fixture.server.requestCount == 3 }
        #expect(arrived)
        slow.cancel()
        #expect(await slow.value == .cancelled)
        release.signal()
        #expect(await plugin.settled())
        #expect(plugin.events == ["send -", "receive -", "send -", "fail(HTTP 404 Not Found: {}) -", "send -", "fail(cancelled) -"])
    }

    @Test func updatesIsOneCall() async throws {
        let client = client()
        let endpoint = Endpoint<JSONValue>(.get, "/n", cachePolicy: .returnCacheThenLoad)
        for try await _ in client.updates(endpoint) {}
        for try await _ in client.updates(endpoint) {}
        #expect(await plugin.settled())
        #expect(plugin.events == ["send -", "receive -", "send -", "receive -"])
    }

    @Test func updatesLeftAfterTheCachedAnswerFinishesAsCancelled() async throws {
        let client = client()
        let endpoint = Endpoint<JSONValue>(.get, "/slow", cachePolicy: .returnCacheThenLoad)
        release.signal()
        _ = try await client.send(endpoint)
        for try await reply in client.updates(endpoint) {
            #expect(reply.source == .cache)
            break  // the network's answer is still on its way: ending the loop cancels it
        }
        #expect(await plugin.settled())
        release.signal()
        #expect(plugin.events == ["send -", "receive -", "send -", "fail(cancelled) -"])
    }

    @Test func batchesBalanceWhenOneFailsAndTheRestAreCancelled() async throws {
        let client = client(cached: false)
        let endpoints = [Endpoint<JSONValue>(.get, "/slow"), Endpoint<JSONValue>(.get, "/missing"), Endpoint<JSONValue>(.get, "/slow", query: ["b": "1"])]
        let error = await riffleError { () async throws(RiffleError) in try await client.sendBatchFailingFast(endpoints, maxConcurrent: 3) }
        #expect(error.map { if case .httpStatus(404, _) = $0 { true } else { false } } == true)
        #expect(await plugin.settled())
        release.signal()
        release.signal()
        let events = plugin.events
        #expect(events.filter { $0.hasPrefix("send") }.count == 3)
        #expect(events.filter { $0.hasPrefix("fail") }.count == 3)
        _ = await client.sendBatch([Endpoint<JSONValue>(.get, "/a"), Endpoint<JSONValue>(.get, "/missing")])
        #expect(await plugin.settled())
        #expect(plugin.events.count == events.count + 4)
    }

    @Test func retriesHappenInsideOneCallAndCarryItsName() async throws {
        let client = client(cached: false)
        var endpoint = Endpoint<JSONValue>(.get, "/flaky")
        endpoint.name = "flaky"
        _ = try await client.send(endpoint)
        #expect(plugin.events == ["send flaky", "retry flaky", "retry flaky", "receive flaky"])
    }

    @Test func aSilentEndpointKeepsTheIndicatorHidden() async throws {
        let client = client()
        var history = Endpoint<JSONValue>(.post, "/history", body: .json(["video": 42]))
        history.name = "history"
        history.tags = [.silent]
        _ = try await client.send(history)
        #expect(plugin.events == ["send history silent", "receive history silent"])
        #expect(plugin.state.withLock { $0.mostVisible } == 0)
        _ = try await client.send(Endpoint<JSONValue>(.get, "/n"))
        #expect(plugin.state.withLock { $0.mostVisible } == 1)
    }

    @Test func anEndpointThatFailsBeforeSendingIsACallToo() async throws {
        // No secondary base URL: the endpoint never becomes a request, on either path.
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-log-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        let plugin = plugin
        let client = fixture.client { $0.plugins = [plugin, RequestLogPlugin(path: log.path)] }
        var mirror = Endpoint<JSONValue>(.get, .secondary("/mirror"))
        mirror.name = "mirror"
        let expected = RiffleError.transport("no secondary base URL configured for /mirror")
        #expect(await riffleError { () async throws(RiffleError) in try await client.send(mirror) } == expected)
        mirror.cachePolicy = .returnCacheThenLoad
        #expect(await riffleError { () async throws(RiffleError) in for try await _ in client.updates(mirror) {} } == expected)
        #expect(plugin.events == Array(repeating: ["send mirror (no request)", "fail(\(expected)) mirror (no request)"], count: 2).flatMap { $0 })
        #expect(await plugin.settled())
        #expect(fixture.server.requestCount == 0)
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("- - error(\(expected)) 0B ") && $0.hasSuffix("ms -") }, "\(lines)")
    }

    /// Polls every few milliseconds for up to `patience`.
    private func waitFor(_ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + patience
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return true
    }
}
