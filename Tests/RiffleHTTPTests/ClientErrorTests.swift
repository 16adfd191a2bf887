import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Synchronization
import Testing
@testable import RiffleHTTP

@Suite("Client: each error produced for real on 127.0.0.1")
struct ClientErrorTests {
    @Test func aClosedPortCannotConnect() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let refusing = try RefusingPort()
        let url = URL(string: "http://127.0.0.1:\(refusing.port)/x")!
        let client = makeClient(server) { $0.retry = .none }
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, .url(url))) }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(refusing.port)", reason: "connection refused"))
        #expect(server.requestCount == 0)
    }

    /// A host that drops packets: the connection is never made. That is "could not connect (no
    /// answer)", not a server that timed out, and it is not tried again (each try costs the whole
    /// connect timeout, and the kernel has already sent its SYN several times over).
    @Test func aConnectionNobodyAnswersCannotConnectAndIsNotTriedAgain() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let silent = try SilentPort()
        var transport = CurlTransport.Configuration()
        transport.connectTimeout = .milliseconds(300)
        let sleeper = RecordingSleeper()
        let client = makeClient(server, sleeper: sleeper, transport: CurlTransport(transport))
        let url = URL(string: "http://127.0.0.1:\(silent.port)/x")!
        let error = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, .url(url))) }
        #expect(error == .cannotConnect(host: "127.0.0.1:\(silent.port)", reason: RiffleError.noAnswerReason))
        #expect(error?.description == "could not connect to 127.0.0.1:\(silent.port) (no answer)")
        #expect(error?.isOffline == false, "a wait that ran out is never called offline")
        #expect(sleeper.recorded.isEmpty, "retried after \(sleeper.recorded)")
    }

    /// A refusal whose headers say when to come back says it first: a 429's or 503's `Retry-After`,
    /// GitHub's `X-RateLimit-Remaining: 0` with `X-RateLimit-Reset` (Unix seconds), the IETF draft's
    /// `RateLimit-Reset` (seconds). Where the body did not say it (GitHub's 403 "API rate limit
    /// exceeded"), the message was all a person had and it did not say for how long.
    @Test func aRefusalThatSaysWhenToComeBackSaysSo() async throws {
        let server = try HTTPServer { request in
            let reset = Int(Date().timeIntervalSince1970) + 1_800
            return switch request.path {
            case "/429": .json(#"{"message": "slow down"}"#, status: 429, headers: [("Retry-After", "5400")])
            case "/503": .text("", status: 503, headers: [("Retry-After", "45")])
            case "/github": .json(#"{"message": "API rate limit exceeded"}"#, status: 403,
                                  headers: [("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "\(reset)")])
            case "/ietf": .json("{}", status: 429, headers: [("RateLimit-Remaining", "0"), ("RateLimit-Reset", "172800")])
            case "/left": .json(#"{"message": "no"}"#, status: 403, headers: [("X-RateLimit-Remaining", "12"), ("X-RateLimit-Reset", "\(reset)")])
            default: .json(#"{"message": "no"}"#, status: 401, headers: [("Retry-After", "60")])
            }
        }
        defer { server.stop() }
        let client = makeClient(server) { $0.retry = .none }
        func message(_ path: String) async -> String? {
            await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, .primary(path))) }?.description
        }
        #expect(await message("/429") == #"HTTP 429 Too Many Requests: try again in 1h 30m; {"message": "slow down"}"#)
        #expect(await message("/503") == "HTTP 503 Service Unavailable: try again in 45s")
        #expect(await message("/github") == #"HTTP 403 Forbidden: try again in 30m; {"message": "API rate limit exceeded"}"#)
        #expect(await message("/ietf") == "HTTP 429 Too Many Requests: try again in 2d; {}")
        // Requests left, or a Retry-After on a status that is no refusal for a while: nothing to wait for.
        #expect(await message("/left") == #"HTTP 403 Forbidden: {"message": "no"}"#)
        #expect(await message("/401") == #"HTTP 401 Unauthorized: {"message": "no"}"#)
    }

    /// What a server may put in those headers: an HTTP date, a time already past, a negative or
    /// absurd number, a fraction (Discord's reset); only a wait ahead, of at most a year, is told.
    @Test(arguments: [
        ("Retry-After", "Sat, 05 Dec 2026 12:00:00 GMT", "try again in 24h"), ("Retry-After", "Fri, 04 Dec 2026 12:00:01 GMT", "try again in 1s"),
        ("Retry-After", "Fri, 04 Dec 2026 11:00:00 GMT", nil), ("Retry-After", "-5", nil), ("Retry-After", "0", nil),
        ("Retry-After", "99999999999999999999", nil), ("Retry-After", "31536001", nil), ("Retry-After", "3599", "try again in 1h"),
        ("Retry-After", "soon", nil), ("X-RateLimit-Reset", "1796385600.25", "try again in 1s"), ("X-RateLimit-Reset", "1e999", nil),
        ("X-RateLimit-Reset", "90", "try again in 2m"),
    ] as [(String, String, String?)])
    func onlyAWaitAheadIsTold(header: String, value: String, note: String?) {
        let now = Date(timeIntervalSince1970: 1_796_385_600)  // Fri, 04 Dec 2026 12:00:00 GMT
        let response = HTTPResponse(status: 429, headers: [header.lowercased(): value, "x-ratelimit-remaining": "0"], body: Data("{}".utf8),
                                    url: URL(string: "http://127.0.0.1/x")!)
        let error = RiffleError.status(of: response, now: now)
        #expect(error == .httpStatus(code: 429, excerpt: note.map { $0 + "; {}" } ?? "{}"))
        // What the note says is what a watch waits: read back, it is the wait, rounded up as written.
        #expect(error.waitAsked.map { RiffleError.waitText(seconds: Int($0)) } == note.map { String($0.dropFirst("try again in ".count)) })
    }

    @Test func aServerThatNeverAnswersTimesOutWithinTheBudget() async throws {
        // The server never answers; it times, on its own thread, how long the client stayed connected.
        // (Timed around the `await` instead, a loaded machine's busy task pool could add seconds.)
        let connected = Mutex<[Duration]>([])
        let listener = try ScriptedListener { connection, _ in
            guard connection.readRequest() != nil else { return }
            let arrived = ContinuousClock.now
            connection.waitForClose()
            connected.withLock { $0.append(ContinuousClock.now - arrived) }
        }
        var configuration = Client.Configuration(baseURL: listener.url(), environment: [:])
        configuration.sleep = RecordingSleeper().sleep
        let client = Client(configuration, transport: CurlTransport())
        let error = await riffleError { () async throws(RiffleError) in
            try await client.send(Endpoint<JSONValue>(.get, "/", timeout: .milliseconds(1500)))
        }
        #expect(error == .timedOut(host: "127.0.0.1:\(listener.port)"))
        #expect(error?.description == "127.0.0.1:\(listener.port) timed out")
        #expect(await eventually { connected.withLock { !$0.isEmpty } })
        // The budget covers the retries: the GET is not tried again once it is spent.
        let times = connected.withLock { $0 }
        #expect(times.count == 1 && listener.connectionCount == 1, "\(times)")
        #expect(times.allSatisfy { $0 >= .milliseconds(1300) && $0 < .seconds(25) }, "\(times)")  // a minute if never cut
    }

    @Test func invalidJSONNamesTheByteOffset() async throws {
        let server = try HTTPServer { _ in .json(#"{"a": 1,, "b": 2}"#) }
        let error = await riffleError { () async throws(RiffleError) in try await makeClient(server).send(Endpoint<JSONValue>(.get, "/")) }
        guard case .invalidJSON(let offset, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(offset == 8)
    }

    @Test func httpsAgainstAPlainHTTPPortIsATLSError() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let plain = try ScriptedListener.plainHTTP()
        let url = URL(string: "https://127.0.0.1:\(plain.port)/")!
        let error = await riffleError { () async throws(RiffleError) in
            try await makeClient(server) { $0.retry = .none }.send(Endpoint<JSONValue>(.get, .url(url)))
        }
        guard case .tls(let host, _) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(host == "127.0.0.1:\(plain.port)")
    }

    @Test func anErrorStatusCarriesTheCodeAndAShortExcerpt() async throws {
        let server = try HTTPServer { _ in .text(String(repeating: "gone\n", count: 100), status: 410) }
        let error = await riffleError { () async throws(RiffleError) in try await makeClient(server).send(Endpoint<JSONValue>(.get, "/")) }
        guard case .httpStatus(410, let excerpt) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(excerpt.hasPrefix("gone gone"))
        #expect(excerpt.count <= 101)
        #expect(error?.description.hasPrefix("HTTP 410 Gone: gone") == true)
    }

    /// A connection that broke mid-answer (a body shorter than announced, an empty reply, a reset) was
    /// made: the message says it was lost, never "could not connect", which reads as a server that is down.
    @Test func aConnectionLostMidAnswerSaysSo() {
        let url = URL(string: "https://feeds.example.org:8443/x")!
        for code: Int32 in [18, 52, 56] {
            #expect(RiffleError.curl(code: code, osError: 104, detail: "", url: url).description == "lost the connection to feeds.example.org:8443")
        }
    }

    @Test func libcurlFailuresMapToOneErrorForEveryHost() {
        let url = URL(string: "https://nowhere.invalid:8443/x")!
        let map = { (code: Int32, errno: Int32) in RiffleError.curl(code: code, osError: errno, detail: "", url: url) }
        #expect(map(6, 0) == .dnsFailure(host: "nowhere.invalid"))
        #expect(map(7, 111) == .cannotConnect(host: "nowhere.invalid:8443", reason: "connection refused"))
        #expect(map(7, 101) == .offline)  // ENETUNREACH
        #expect(map(7, 113) == .offline)  // EHOSTUNREACH
        #expect(map(28, 0) == .timedOut(host: "nowhere.invalid:8443"))  // the request went out
        #expect(RiffleError.curl(code: 28, osError: 0, detail: "", url: url, sent: false)
            == .cannotConnect(host: "nowhere.invalid:8443", reason: RiffleError.noAnswerReason))
        #expect(map(7, 110) == .cannotConnect(host: "nowhere.invalid:8443", reason: RiffleError.noAnswerReason))  // ETIMEDOUT
        #expect(map(56, 104) == .cannotConnect(host: "nowhere.invalid:8443", reason: RiffleError.connectionLostReason))
        #expect(map(60, 0) == .tls(host: "nowhere.invalid:8443", reason: "secure connection failed"))
        #expect(map(42, 0) == .cancelled)
        for code: Int32 in [6, 7, 28, 35, 56, 60] { #expect(map(code, 111).isConnectivityFailure, "code \(code)") }
        #expect(!map(61, 0).isConnectivityFailure)
    }
}
