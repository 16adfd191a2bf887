import DemoServer
import Foundation
import RiffleJSON
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

@Suite("Client: batches, cancellation, multipart and plugins against 127.0.0.1")
struct ClientBatchTests {
    @Test func aBatchKeepsEveryResultInOrder() async throws {
        // Later endpoints answer sooner, so completion order is the reverse of the order asked.
        let server = try HTTPServer { request in
            let n = Int(request.query("n") ?? "0") ?? 0
            if n == 2 { return .json("{}", status: 404) }
            return .json(#"{"n": \#(n)}"#).delayed(by: .milliseconds(40 * (4 - n)))
        }
        let client = makeClient(server)
        let endpoints = (0..<4).map { Endpoint<JSONValue>(.get, "/item", query: ["n": String($0)]) }
        let results = await client.sendBatch(endpoints)
        #expect(results.count == 4)
        #expect(try results[0].get().value == ["n": 0])
        #expect(try results[1].get().value == ["n": 1])
        #expect(try results[3].get().value == ["n": 3])
        guard case .failure(.httpStatus(404, _)) = results[2] else { Issue.record("got \(results[2])"); return }
    }

    @Test func aBatchKeepsAtMostItsLimitInFlight() async throws {
        // Every answer waits for the test's signal: the window is checked step by step, not by timing.
        let gate = DispatchSemaphore(value: 0)
        let server = try HTTPServer { request in
            gate.waitForTest()
            return .json(#"{"n": \#(request.query("n") ?? "")}"#)
        }
        let client = makeClient(server)
        let endpoints = (0..<10).map { Endpoint<JSONValue>(.get, "/item", query: ["n": String($0)]) }
        let batch = Task { await client.sendBatch(endpoints, maxConcurrent: 3) }
        for released in 0...7 {
            // Three are in flight (then fewer as the list runs out) before the next answer is let go.
            let arrived = await eventually { server.requestCount >= min(10, 3 + released) }
            #expect(arrived)
            gate.signal()
        }
        gate.signal()
        gate.signal()
        let results = await batch.value
        #expect(try results.map { try $0.get().value } == (0..<10).map { ["n": .number(String($0))] })
        #expect(server.maxConcurrentRequests == 3)
    }

    @Test func failFastThrowsTheFirstErrorAndCancelsTheRest() async throws {
        let server = try HTTPServer { request in
            request.query("n") == "1" ? .json("{}", status: 500) : .json("{}").delayed(by: patience * 3)
        }
        let client = makeClient(server) { $0.retry = .none }
        let endpoints = (0..<3).map { Endpoint<JSONValue>(.get, "/item", query: ["n": String($0)]) }
        let error = await riffleError { () async throws(RiffleError) in try await client.sendBatchFailingFast(endpoints) }
        #expect(error.map { if case .httpStatus(500, _) = $0 { true } else { false } } == true)
    }

    @Test func cancellingTheCallingTaskCancelsTheTransfer() async throws {
        let (arrived, arrival) = AsyncStream.makeStream(of: Void.self)
        let server = try HTTPServer { _ in
            arrival.yield()
            return .json("{}").delayed(by: patience * 3)
        }
        let client = makeClient(server)
        let task = Task { () async -> RiffleError? in
            await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/slow")) }
        }
        for await _ in arrived { break }  // the request is on the server: cancel mid-transfer
        task.cancel()
        #expect(await task.value == .cancelled)
        #expect(server.requestCount == 1)
    }

    @Test func aMultipartBodyIsParsedBackByTheServer() async throws {
        let server = try HTTPServer { request in
            guard let type = request.header("content-type"), let range = type.range(of: "boundary=") else {
                return .json("{}", status: 400)
            }
            let parts = MultipartParser.parse(request.body, boundary: String(type[range.upperBound...]))
            let summary = parts.map { "\($0.disposition)|\($0.type ?? "-")|\($0.body)" }
            return .json(JSONWriter.data(.array(summary.map { .string($0) })))
        }
        let form = MultipartForm(fields: ["title": "Notes", "lang": "日本語"],
                                 files: [.init(name: "file", filename: "a.txt", contentType: "text/plain", data: Data("hello\r\nworld".utf8))])
        let reply = try await makeClient(server).send(Endpoint<[String]>(.post, "/upload", body: .multipart(form)))
        #expect(reply.value == [
            #"form-data; name="title"|-|Notes"#,
            #"form-data; name="lang"|-|日本語"#,
            "form-data; name=\"file\"; filename=\"a.txt\"|text/plain|hello\r\nworld",
        ])
    }

    @Test func formAndJSONBodiesArriveWithTheirContentType() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        let client = makeClient(server)
        _ = try await client.send(Endpoint<JSONValue>(.put, "/f", body: .form(["q": "a b&c", "page": "2"])))
        _ = try await client.send(Endpoint<JSONValue>(.post, "/j", body: .json(["name": "Ada", "n": [1, .null]])))
        let requests = server.requests
        #expect(requests[0].header("content-type") == "application/x-www-form-urlencoded")
        #expect(String(decoding: requests[0].body, as: UTF8.self) == "q=a+b%26c&page=2")
        #expect(requests[1].method == "POST")
        #expect(String(decoding: requests[1].body, as: UTF8.self) == #"{"name":"Ada","n":[1,null]}"#)
    }

    @Test func pluginsSeeEachRequestAndTheLogPluginWritesALine() async throws {
        let server = try HTTPServer { request in request.path == "/bad" ? .json("{}", status: 500) : .json(#"{"a": 1}"#) }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-log-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: log) }
        var configuration = Client.Configuration(baseURL: URL(string: "http://user:secret@127.0.0.1:\(server.port)")!,
                                                 environment: ["RIFFLE_LOG": log.path])
        configuration.retry = .none
        let client = Client(configuration)
        _ = try await client.send(Endpoint<JSONValue>(.get, "/ok"))
        _ = await riffleError { () async throws(RiffleError) in try await client.send(Endpoint<JSONValue>(.get, "/bad")) }
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("GET http://127.0.0.1:\(server.port)/ok 200 8B "))
        #expect(lines[0].hasSuffix("ms network"))
        #expect(lines[1].contains("/bad error(HTTP 500"))
        #expect(!lines.joined().contains("secret"))
    }
}

/// A minimal multipart/form-data reader, standing in for what a real server does.
enum MultipartParser {
    struct Part { var disposition: String; var type: String?; var body: String }

    static func parse(_ body: Data, boundary: String) -> [Part] {
        let text = String(decoding: body, as: UTF8.self)
        return text.components(separatedBy: "--\(boundary)").dropFirst().compactMap { chunk -> Part? in
            guard !chunk.hasPrefix("--"), let split = chunk.range(of: "\r\n\r\n") else { return nil }
            let head = chunk[..<split.lowerBound].split(separator: "\r\n").map(String.init)
            var content = String(chunk[split.upperBound...])
            if content.hasSuffix("\r\n") { content.removeLast() }  // "\r\n" is one Character
            func field(_ name: String) -> String? {
                head.first { $0.lowercased().hasPrefix(name + ":") }.map { String($0.dropFirst(name.count + 1)).trimmingCharacters(in: .whitespaces) }
            }
            return Part(disposition: field("content-disposition") ?? "", type: field("content-type"), body: content)
        }
    }
}
