import Testing
@testable import riffle

@Suite("Parsing the command line")
struct ArgumentsTests {
    @Test func noArgumentsBrowsesTheDemo() throws {
        let arguments = try Arguments.parse([])
        #expect(arguments.command == .browse)
        #expect(arguments.positionals.isEmpty)
    }

    @Test func commonOptionsGoBeforeOrAfterTheCommand() throws {
        let before = try Arguments.parse(["--cache-dir", "/tmp/c", "dump", "hn", "--pages", "1-3"])
        let after = try Arguments.parse(["dump", "hn", "--pages=1-3", "--cache-dir=/tmp/c"])
        #expect(before == after)
        #expect(before.command == .dump)
        #expect(before.positionals == ["hn"])
        #expect(before.values == ["--cache-dir": "/tmp/c", "--pages": "1-3"])
    }

    @Test func aURLIsAFeedNotACommand() throws {
        let arguments = try Arguments.parse(["https://lobste.rs/page/{page}.json", "--first-page", "0"])
        #expect(arguments.command == .browse)
        #expect(try arguments.integer("--first-page", in: 0...9) == 0)
    }

    @Test func errorsNameWhatIsWrong() {
        #expect(throws: Arguments.UsageError("unknown option '--nope'")) { try Arguments.parse(["--nope"]) }
        #expect(throws: Arguments.UsageError("option --pages needs a value")) { try Arguments.parse(["dump", "x", "--pages"]) }
        #expect(throws: Arguments.UsageError("option --theme does not apply to 'riffle dump'")) {
            try Arguments.parse(["dump", "x", "--theme", "dark"])
        }
        #expect(throws: Arguments.UsageError("option --refresh takes no value")) { try Arguments.parse(["dump", "--refresh=yes"]) }
        #expect(throws: Arguments.UsageError("option --cache-dir needs a folder, got ''")) { try Arguments.parse(["cache", "clear", "--yes", "--cache-dir", ""]) }
        #expect(throws: Arguments.UsageError("option --cache-dir needs a folder, got ''")) { try Arguments.parse(["dump", "hn", "--cache-dir="]) }
        #expect(throws: Arguments.UsageError("unknown help topic 'extra' (use dump, inspect, cache, feeds, add or search)")) {
            try Arguments.parse(["help", "extra"])
        }
        #expect(throws: Arguments.UsageError("riffle help takes one topic, got 2: dump search")) { try Arguments.parse(["help", "dump", "search"]) }
        #expect(throws: Arguments.UsageError("option --first-page needs a whole number from 0 to 9, got 'x'")) {
            try Arguments.parse(["--first-page", "x"]).integer("--first-page", in: 0...9)
        }
    }

    @Test(arguments: ["10", "-1", "9223372036854775807", "9223372036854775808", "99999999999999999999999", "1e3", " 3"])
    func integersOutsideTheirRangeAreUsageErrors(text: String) {
        #expect(throws: Arguments.UsageError("option --concurrency needs a whole number from 1 to 9, got '\(text)'")) {
            try Arguments.parse(["dump", "x", "--concurrency", text]).integer("--concurrency", in: 1...9)
        }
    }

    @Test func integersInsideTheirRangeAreTaken() throws {
        #expect(try Arguments.parse(["dump", "x", "--concurrency=9"]).integer("--concurrency", in: 1...9) == 9)
        #expect(try Arguments.parse(["dump", "x", "--concurrency", "1"]).integer("--concurrency", in: 1...9) == 1)
        #expect(try Arguments.parse(["dump", "x"]).integer("--concurrency", in: 1...9) == nil)
    }

    @Test func helpWinsAnywhere() throws {
        #expect(try Arguments.parse(["dump", "--help"]).command == .help)
    }
}
