import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleCache
@testable import RiffleHTTP

/// Seed 002's duplicate suppression: identical calls in flight share one transfer, counted by a server
/// on 127.0.0.1 that holds every answer until the test lets it go (an ordering, not a timing).
@Suite("Duplicates in flight: GETs share one transfer, other methods join or drop on request")
struct ClientDuplicateTests {
    let gate = DispatchSemaphore(value: 0)
    let fixture: SeedFixture

    init() throws {
        let gate = gate
        fixture = try SeedFixture { request in
            gate.waitForTest()
            return .json(#"{"method": "\#(request.method)", "n": \#(request.header("x-n") ?? "0")}"#)
        }
    }

    /// Starts one send of `endpoint`.
    func start(_ endpoint: Endpoint<JSONValue>, on client: Client) -> Task<Result<JSONValue, RiffleError>, Never> {
        Task { () async -> Result<JSONValue, RiffleError> in
            do throws(RiffleError) { return .success(try await client.send(endpoint).value) } catch { return .failure(error) }
        }
    }

    /// Starts `count` identical sends of `endpoint` and returns their tasks once `ready` holds.
    func sendAll(_ count: Int, _ endpoint: Endpoint<JSONValue>, on client: Client,
                 until ready: @escaping () -> Bool) async -> [Task<Result<JSONValue, RiffleError>, Never>] {
        let tasks = (0..<count).map { _ in start(endpoint, on: client) }
        #expect(await eventually(ready))
        return tasks
    }

    /// True once `count` callers share the transfer: the one running it and `count - 1` waiting.
    func joined(_ client: Client, _ endpoint: Endpoint<JSONValue>, _ count: Int) -> () -> Bool {
        let key = ResponseCache.flightKey(try! client.request(for: endpoint))
        return { client.flights.isInFlight(key) && client.flights.waiterCount(key) == count - 1 }
    }

    @Test(arguments: [false, true])
    func identicalGETsInFlightShareOneTransfer(cached: Bool) async throws {
        let client = fixture.client(cached: cached)
        let endpoint = Endpoint<JSONValue>(.get, "/list", headers: ["X-N": "7"])
        let server = fixture.server
        let all = joined(client, endpoint, 5)
        let tasks = await sendAll(5, endpoint, on: client) { server.requestCount == 1 && (cached || all()) }
        if cached {
            // With a cache the cache's own table shares the transfer: its waiters are the five callers.
            #expect(await eventually { await fixture.cache.waiterCount(for: try! client.request(for: endpoint)) == 5 })
        }
        gate.signal()
        for task in tasks { #expect(try await task.value.get() == ["method": "GET", "n": 7]) }
        #expect(server.requestCount == 1)
        // Once it is over, the next one is a transfer of its own.
        var again = endpoint
        again.cachePolicy = .reloadIgnoringCache
        gate.signal()
        _ = try await client.send(again)
        #expect(server.requestCount == 2)
    }

    @Test func identicalPOSTsAreEachSentByDefault() async throws {
        let client = fixture.client()
        let endpoint = Endpoint<JSONValue>(.post, "/send", body: .json(["text": "hi"]))
        let server = fixture.server
        let tasks = await sendAll(5, endpoint, on: client) { server.requestCount == 5 }
        for _ in 0..<5 { gate.signal() }
        for task in tasks { #expect(try await task.value.get()["method"] == "POST") }
    }

    @Test func aPOSTThatJoinsMakesOneRequestAndEveryCallerGetsItsAnswer() async throws {
        let client = fixture.client()
        var endpoint = Endpoint<JSONValue>(.post, "/send", body: .json(["text": "hi"]))
        endpoint.duplicates = .join
        let server = fixture.server
        let tasks = await sendAll(5, endpoint, on: client, until: joined(client, endpoint, 5))
        #expect(server.requestCount <= 1)
        gate.signal()
        for task in tasks { #expect(try await task.value.get()["method"] == "POST") }
        #expect(server.requestCount == 1)
        // Another body is another request.
        gate.signal()
        _ = try await client.send(Endpoint<JSONValue>(.post, "/send", body: .json(["text": "bye"])))
        #expect(server.requestCount == 2)
    }

    @Test func aPOSTThatDropsFailsTheDuplicatesAtOnce() async throws {
        let client = fixture.client()
        var endpoint = Endpoint<JSONValue>(.post, "/send", body: .json(["text": "hi"]))
        endpoint.duplicates = .drop
        let first = await sendAll(1, endpoint, on: client, until: joined(client, endpoint, 1))
        var dropped: [RiffleError?] = []
        for _ in 0..<4 {
            dropped.append(await riffleError { () async throws(RiffleError) in try await client.send(endpoint) })
        }
        #expect(dropped == Array(repeating: .duplicate, count: 4))
        #expect(dropped.first??.description == "already sent, waiting for its answer")
        gate.signal()
        #expect(try await first[0].value.get()["method"] == "POST")
        #expect(fixture.server.requestCount == 1)
    }

    @Test func aCancelledCallerThatJoinedLeavesAtOnceAndTheFirstStillGetsTheAnswer() async throws {
        let client = fixture.client(cached: false)
        let endpoint = Endpoint<JSONValue>(.get, "/list")
        let server = fixture.server
        let first = await sendAll(1, endpoint, on: client) { server.requestCount == 1 }[0]
        let second = start(endpoint, on: client)
        #expect(await eventually(joined(client, endpoint, 2)))
        second.cancel()
        #expect(await second.value == .failure(.cancelled))
        #expect(client.flights.waiterCount(ResponseCache.flightKey(try client.request(for: endpoint))) == 0)
        gate.signal()
        #expect(try await first.value.get() == ["method": "GET", "n": 0])
        #expect(server.requestCount == 1)
    }

    @Test func whenTheFirstCallerIsCancelledAWaitingOneStartsOver() async throws {
        let client = fixture.client(cached: false)
        let endpoint = Endpoint<JSONValue>(.get, "/list")
        let server = fixture.server
        let first = await sendAll(1, endpoint, on: client) { server.requestCount == 1 }[0]
        let second = start(endpoint, on: client)
        #expect(await eventually(joined(client, endpoint, 2)))
        first.cancel()
        #expect(await first.value == .failure(.cancelled))
        // The one left sends again itself, and gets its answer.
        #expect(await eventually { server.requestCount == 2 })
        gate.signal()
        gate.signal()
        #expect(try await second.value.get() == ["method": "GET", "n": 0])
    }

    @Test func whenEveryCallerLeavesTheTableIsEmpty() async throws {
        let client = fixture.client(cached: false)
        let endpoint = Endpoint<JSONValue>(.get, "/list")
        let server = fixture.server
        let tasks = await sendAll(2, endpoint, on: client) { server.requestCount == 1 }
        #expect(await eventually(joined(client, endpoint, 2)))
        for task in tasks { task.cancel() }
        for task in tasks { #expect(await task.value == .failure(.cancelled)) }
        let key = ResponseCache.flightKey(try client.request(for: endpoint))
        #expect(await eventually { !client.flights.isInFlight(key) })
        gate.signal()
        // The next call sends again.
        gate.signal()
        _ = try await client.send(endpoint)
        #expect(server.requestCount == 2)
    }
}

extension Result where Success == JSONValue, Failure == RiffleError {
    static func == (a: Self, b: Self) -> Bool {
        switch (a, b) {
        case (.success(let x), .success(let y)): x == y
        case (.failure(let x), .failure(let y)): x == y
        default: false
        }
    }
}
