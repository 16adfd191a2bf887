import DemoServer
import Foundation
import RiffleTestSupport
import Testing

/// `riffle dump` asks for pages at the network's pace: the next request leaves once an answer says
/// more follow, whatever becomes of the output.
@Suite("riffle dump asks at the network's pace")
struct DumpPaceTests {
    /// Three pages of 50 items of 2 KB (each page's lines more than a pipe holds), the third the last.
    static func bigPages() throws -> HTTPServer {
        try HTTPServer { request in
            let page = Int(request.query("page") ?? "") ?? 0
            let body = String(repeating: "x", count: 2_000)
            let items = (1...50).map { #"{"id": \#(page * 100 + $0), "title": "item \#(page)-\#($0)", "body": "\#(body)"}"# }
            return .json(#"{"page": \#(page), "total_pages": 3, "items": [\#(items.joined(separator: ","))]}"#)
        }
    }

    @Test func aReaderThatTakesNoOutputHoldsUpNoRequest() async throws {
        let server = try Self.bigPages()
        defer { server.stop() }
        let cache = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: cache) }
        let (fifo, reader) = try RiffleBinary.outputPipe()
        defer { unlink(fifo) }
        defer { close(reader) }
        let arguments = ["dump", "http://127.0.0.1:\(server.port)/items?page={page}", "--cache-dir", cache.path,
                         "--pages", "1-200", "--concurrency", "1"]
        let run = Task.detached { try await RiffleBinary.run(arguments, stdout: fifo) }

        // Nothing reads yet: page 1's lines fill the pipe, and pages 2 and 3 are asked for all the same.
        let deadline = ContinuousClock.now + patience
        while server.requestCount < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        let asked = server.requests.map(\.target)

        // Then every line is read, on a thread of its own with blocking reads (a poll on the shared
        // pool could starve under load, and riffle would wait on the full pipe): riffle closing its
        // end, or being killed at Spawn's timeout, ends the reads.
        _ = fcntl(reader, F_SETFL, 0)
        let lines = await withCheckedContinuation { (done: CheckedContinuation<Int, Never>) in
            Thread {
                var lines = 0
                var buffer = [UInt8](repeating: 0, count: 65_536)
                while true {
                    let n = buffer.withUnsafeMutableBytes { read(reader, $0.baseAddress, $0.count) }
                    if n < 0, errno == EINTR { continue }
                    guard n > 0 else { break }
                    lines += buffer[..<n].count(where: { $0 == UInt8(ascii: "\n") })
                }
                done.resume(returning: lines)
            }.start()
        }
        let result = try await run.value

        #expect(asked == (1...3).map { "/items?page=\($0)" }, "requests while the output waited: \(asked)")
        #expect(result.status == 0, "\(result.stderr)")
        #expect(lines == 150)
        #expect(server.requestCount == 3)
    }
}
