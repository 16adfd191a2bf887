import Foundation
import Testing
@testable import riffle

@Suite("riffle's command line")
struct CommandLineTests {
    func expectUsageError(_ arguments: [String], mentions text: String) async throws {
        let result = try await RiffleBinary.run(arguments)
        #expect(result.status == 2, "\(arguments) exited \(result.status)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line on stderr, got: \(result.stderr)")
        #expect(result.stderr.contains(text), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func unknownOption() async throws { try await expectUsageError(["--frobnicate"], mentions: "unknown option '--frobnicate'") }
    @Test func firstPageForAURLWithoutPage() async throws {
        try await expectUsageError(["dump", "https://lobste.rs/newest.json", "--first-page", "0"], mentions: "needs a URL with {page}")
    }
    @Test func urlThatDoesNotParse() async throws { try await expectUsageError(["http://exa mple.com/{page}"], mentions: "not a valid URL") }
    @Test func nonHTTPScheme() async throws { try await expectUsageError(["ftp://example.com/{page}"], mentions: "unsupported URL scheme 'ftp'") }
    @Test func optionWithoutValue() async throws { try await expectUsageError(["--first-page"], mentions: "--first-page needs a value") }
    @Test func notATerminal() async throws { try await expectUsageError([], mentions: "standard output is not a terminal") }
    @Test func unknownHelpTopic() async throws {
        try await expectUsageError(["help", "extra"], mentions: "riffle: unknown help topic 'extra' (use dump, inspect, cache, feeds, add or search)")
    }

    @Test(arguments: [["help"], ["help", "dump"], ["help", "cache"], ["-h"], ["dump", "--help"]])
    func helpIsTheSameHoweverAskedFor(arguments: [String]) async throws {
        let result = try await RiffleBinary.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == (try await RiffleBinary.run(["--help"]).stdout))
        #expect(result.stderr.isEmpty)
    }

    /// Every option the parser takes is in --help, and in README.
    @Test func everyOptionIsDocumented() async throws {
        let help = try await RiffleBinary.run(["--help"]).stdout
        let readme = try String(contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appending(path: "README.md"), encoding: .utf8)
        for option in Array(Arguments.valueOptions.keys) + Array(Arguments.flagOptions.keys) + ["--help", "--version"] {
            #expect(help.contains(option), "\(option) is not in --help")
            #expect(readme.contains(option), "\(option) is not in README")
        }
    }

    @Test(arguments: [["dump"], ["cache", "info"], ["cache", "clear", "--yes"], []])
    func aCacheDirThatIsAFileIsNamed(arguments: [String]) async throws {
        let arguments = arguments == ["dump"] ? ["dump", try RiffleBinary.refusingTemplate()] : arguments
        let folder = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "file")
        try Data("x".utf8).write(to: file)
        let result = try await RiffleBinary.run(arguments + ["--cache-dir", file.path])
        #expect(result.status == 2)
        #expect(result.stderr == "riffle: option --cache-dir: \(file.path) is a file, not a folder\n")
        let below = try await RiffleBinary.run(arguments + ["--cache-dir", file.path + "/cache"])
        #expect(below.status == 2)
        #expect(below.stderr.hasPrefix("riffle: option --cache-dir: "), "\(below.stderr)")
        #expect(below.stderr.contains("\(file.path) is a file, not a folder"))
        #expect(!below.stderr.contains("Domain"))
    }

    @Test func helpAndVersionGoToStandardOutput() async throws {
        let help = try await RiffleBinary.run(["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("Usage:"))
        let version = try await RiffleBinary.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.hasPrefix("riffle "))
    }
}
