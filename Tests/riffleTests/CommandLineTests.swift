import Foundation
import Testing

@Suite("riffle's command line")
struct CommandLineTests {
    func expectUsageError(_ arguments: [String], mentions text: String) throws {
        let result = try RiffleBinary.run(arguments)
        #expect(result.status == 2, "\(arguments) exited \(result.status)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line on stderr, got: \(result.stderr)")
        #expect(result.stderr.contains(text), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownOption() throws { try expectUsageError(["--frobnicate"], mentions: "unknown option '--frobnicate'") }
    @Test func urlWithoutPlaceholder() throws { try expectUsageError(["https://lobste.rs/newest.json"], mentions: "{page}") }
    @Test func urlThatDoesNotParse() throws { try expectUsageError(["http://exa mple.com/{page}"], mentions: "not a valid URL") }
    @Test func nonHTTPScheme() throws { try expectUsageError(["ftp://example.com/{page}"], mentions: "unsupported URL scheme 'ftp'") }
    @Test func optionWithoutValue() throws { try expectUsageError(["--first-page"], mentions: "--first-page needs a value") }
    @Test func notATerminal() throws { try expectUsageError([], mentions: "standard output is not a terminal") }

    @Test func helpAndVersionGoToStandardOutput() throws {
        let help = try RiffleBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage:"))
        let version = try RiffleBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("riffle "))
    }
}
