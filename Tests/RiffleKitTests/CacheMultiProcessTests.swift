import Foundation
import Testing
@testable import RiffleKit

@Suite("Cache shared by two processes")
struct CacheMultiProcessTests {
    static let directoryVariable = "RIFFLE_CACHE_CHILD_DIR"
    static let writerVariable = "RIFFLE_CACHE_CHILD_WRITER"
    static let keys = 20

    static func configuration() -> ResponseCache.Configuration {
        var configuration = ResponseCache.Configuration()
        configuration.inlineLimit = 2_000   // half the bodies inline, half in files
        configuration.memoryCountLimit = 0  // every read goes to the shared disk
        return configuration
    }

    static func request(_ key: Int) -> HTTPRequest { HTTPRequest(url: URL(string: "http://127.0.0.1:1/shared/\(key)")!) }

    /// The child's work; does nothing unless started by `twoProcessesWritingTheSameKeys`.
    @Test func childWriter() async throws {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[Self.directoryVariable], let writer = environment[Self.writerVariable] else { return }
        let cache = ResponseCache(directory: URL(fileURLWithPath: path), configuration: Self.configuration())
        for round in 0..<(Self.keys * 6) {
            let key = round % Self.keys
            let pad = String(repeating: writer, count: (key % 2 == 0 ? 500 : 6_000) + round)
            let body = Data(#"{"writer": "\#(writer)", "round": \#(round), "pad": "\#(pad)"}"#.utf8)
            let url = Self.request(key).url
            _ = try await cache.response(for: Self.request(key), policy: .reloadIgnoringCache, maxAge: 3_600, validate: { _ in }) { _ in
                HTTPResponse(status: 200, headers: ["content-type": "application/json"], body: body, url: url)
            }
        }
    }

    @Test func twoProcessesWritingTheSameKeys() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-cache-procs-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = CacheShared<[String]>([])
        var configuration = Self.configuration()
        configuration.log = { line in lines.withLock { $0.append(line) } }

        let statuses = try CacheChildProcess.run(filter: "childWriter", environments: ["a", "b"].map {
            [Self.directoryVariable: directory.path, Self.writerVariable: $0]
        })

        #expect(statuses == [0, 0])
        let cache = ResponseCache(directory: directory, configuration: configuration)
        var writers: Set<String> = []
        for key in 0..<Self.keys {
            let value = try #require(await cache.cachedValue(for: Self.request(key), maxAge: 3_600), "key \(key) lost")
            let document = try JSONParser.parse(value.response.body)  // whole, not torn
            writers.insert(try #require(document["writer"]?.stringValue))
        }
        #expect(writers.isSubset(of: ["a", "b"]))
        #expect(try await cache.statistics().entryCount == Self.keys)
        #expect(lines.withLock { $0 }.isEmpty, "\(lines.withLock { $0 })")
        let bodyFiles = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("responses").path)
            .filter { $0.hasSuffix(".body") }
        #expect(bodyFiles.count == Self.keys / 2)  // every replaced body file was removed
    }
}
