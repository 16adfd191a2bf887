import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

@Suite("Client: retries, counted by the server on 127.0.0.1")
struct ClientRetryTests {
    let server: HTTPServer

    init() throws {
        let hits = Mutex([String: Int]())
        server = try HTTPServer { request in
            let count = hits.withLock { $0[request.path, default: 0] += 1; return $0[request.path]! }
            switch request.path {
            case "/503": return .json(#"{"e": 1}"#, status: 503)
            case "/429-once": return count == 1 ? .json("{}", status: 429, headers: [("Retry-After", "1")]) : .json(#"{"n": 2}"#)
            case "/retry-after": return .json("{}", status: 503, headers: [("Retry-After", "1")])
            case "/404": return .json("{}", status: 404)
            default: return .json("{}")
            }
        }
    }

    @Test(arguments: [HTTPMethod.get, .put, .delete, .head])
    func idempotentRequestsRetryTwiceByDefault(method: HTTPMethod) async throws {
        let sleeper = RecordingSleeper()
        let client = makeClient(server, sleeper: sleeper)
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(method, "/503")) }
        #expect(error.map { if case .httpStatus(503, _) = $0 { true } else { false } } == true)
        #expect(server.requestCount == 3)
        #expect(sleeper.recorded.count == 2)
    }

    @Test(arguments: [HTTPMethod.post, .patch])
    func postAndPatchNeverRetryUnlessTheEndpointSaysSo(method: HTTPMethod) async throws {
        let client = makeClient(server)
        var endpoint = Endpoint<JSONValue>(method, "/503", body: .json(["a": 1]))
        _ = await riffleError { () async throws(RiffleError) in try await client.send(endpoint) }
        #expect(server.requestCount == 1)
        endpoint.retry = .always
        _ = await riffleError { () async throws(RiffleError) in try await client.send(endpoint) }
        #expect(server.requestCount == 1 + 3)
    }

    @Test func backoffGrowsAndIsCapped() {
        var policy = RetryPolicy()
        policy.baseDelay = .milliseconds(300)
        policy.maxDelay = .seconds(1)
        let delays = (0..<4).map { policy.delay(beforeRetry: $0, random: 0) }
        #expect(delays == [.milliseconds(300), .milliseconds(600), .seconds(1), .seconds(1)])
        #expect(policy.delay(beforeRetry: 0, random: 1) == .milliseconds(150))
    }

    @Test func retryAfterInSecondsIsHonoured() async throws {
        let sleeper = RecordingSleeper()
        let client = makeClient(server, sleeper: sleeper)
        let reply = try await client.send(Endpoint<JSONValue>(.get, "/429-once"))
        #expect(reply.value == ["n": 2])
        #expect(sleeper.recorded == [.seconds(1)])
        _ = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/retry-after")) }
        #expect(sleeper.recorded == [.seconds(1), .seconds(1), .seconds(1)])
    }

    @Test func retryAfterAsAnHTTPDateIsHonoured() {
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == .seconds(30))
        #expect(RetryPolicy.parseRetryAfter("soon", now: now) == nil)
        #expect(RetryPolicy().delay(beforeRetry: 0, retryAfter: "Wed, 21 Oct 2015 07:30:00 GMT", now: now) == .seconds(60))
    }

    @Test func permanentFailuresAreNotRetried() async throws {
        let client = makeClient(server)
        _ = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/404")) }
        #expect(server.requestCount == 1)
    }

    @Test func aStallIsRetriedWithinTheBudget() async throws {
        // The first answer stops halfway and says nothing more; the second comes whole.
        let listener = try ScriptedListener { connection, index in
            guard connection.readRequest() != nil else { return }
            if index == 0 {
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 20\r\n\r\n{\"a\":")
                connection.waitForClose()
            } else {
                connection.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 8\r\n\r\n{\"a\": 1}")
            }
        }
        var transport = CurlTransport.Configuration()
        transport.stallTimeout = .seconds(1)
        let sleeper = RecordingSleeper()
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = sleeper.sleep
        configuration.retry.maxRetries = 1
        let client = Client(configuration, transport: CurlTransport(transport))
        let reply = try await client.send(Endpoint<JSONValue>(.get, "/", timeout: .seconds(120)))
        #expect(reply.value == ["a": 1])
        #expect(listener.connectionCount == 2)
        #expect(sleeper.recorded.count == 1)
    }
}
