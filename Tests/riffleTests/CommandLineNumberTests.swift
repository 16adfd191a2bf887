import Foundation
import Testing

/// Every number on the command line is checked before it is used: the values that trapped on
/// overflow are one-line usage errors naming the option, and no request is made.
@Suite("riffle's command line: numbers out of range")
struct CommandLineNumberTests {
    @Test(arguments: [
        (["--pages", "9223372036854775807"], "--pages"),
        (["--pages", "1-9223372036854775807"], "--pages"),
        (["--pages", "99999999999999999999"], "--pages"),
        (["--pages", "1000001"], "--pages"),
        (["--concurrency", "4611686018427387904"], "--concurrency"),
        (["--concurrency", "65"], "--concurrency"),
        (["--first-page", "9223372036854775807", "--pages", "2"], "--first-page"),
        (["--first-page", "-1"], "--first-page"),
        (["--max-age", "9223372036854775807"], "--max-age"),
        (["--max-age", "-5"], "--max-age"),
    ])
    func dumpNumbersAreChecked(extra: [String], option: String) async throws {
        let fixture = try DumpFixture()
        defer { fixture.cleanUp() }
        let result = try await fixture.dump(extra)
        #expect(result.status == 2, "\(extra): \(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("riffle: option \(option) "), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(fixture.server.requestCount == 0)
    }

    @Test(arguments: [
        (["--demo-fail", "9223372036854775807"], "--demo-fail"),
        (["--first-page", "9223372036854775807", "http://example.invalid/{page}"], "--first-page"),
        (["--max-age", "18446744073709551616"], "--max-age"),
    ])
    func browserNumbersAreCheckedBeforeTheTerminal(arguments: [String], option: String) async throws {
        let result = try await RiffleBinary.run(arguments)
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("riffle: option \(option) needs a whole number from "), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
    }
}
