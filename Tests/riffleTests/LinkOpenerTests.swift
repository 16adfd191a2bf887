import Foundation
import Synchronization
import Testing
@testable import riffle
import RiffleKit
import RiffleTestSupport

/// `$BROWSER` as users set it, run against scripts that record how they were started.
@Suite("Opening links with $BROWSER", .offThePool)
struct LinkOpenerTests {
    static let link = "https://example.com/a?b=1&c=%20d"

    /// A folder for one test's fake browsers, removed by `cleanUp()`.
    struct Browsers {
        let folder: URL

        init() throws { folder = try RiffleBinary.temporaryDirectory() }

        func cleanUp() { try? FileManager.default.removeItem(at: folder) }

        /// A script called `name` that writes its arguments, one a line, then whether its standard
        /// input and output were a terminal, then END, to `name.record`; it exits with `status`. It
        /// uses only the shell's own commands, so it runs with nothing on PATH.
        @discardableResult
        func make(_ name: String, status: Int = 0) throws -> URL {
            let script = folder.appending(path: name)
            let record = folder.appending(path: "\(name).record").path
            let text = """
            #!/bin/sh
            if [ -t 0 ] && [ -t 1 ]; then terminal=TERMINAL; else terminal=NO-TERMINAL; fi
            { for argument in "$@"; do printf '%s\\n' "$argument"; done; echo "$terminal"; echo END; } > '\(record)'
            exit \(status)

            """
            try Self.writeExecutable(text, to: script.path)
            return script
        }

        /// The lines `name` recorded (without END), waiting up to `patience` for a detached one to finish them.
        func record(_ name: String) -> [String]? {
            let path = folder.appending(path: "\(name).record").path
            let deadline = ContinuousClock.now + patience
            while ContinuousClock.now < deadline {
                if let text = try? String(contentsOfFile: path, encoding: .utf8), text.hasSuffix("END\n") {
                    return text.split(separator: "\n").dropLast().map(String.init)
                }
                usleep(10_000)
            }
            return nil
        }

        /// Writes an executable file without ever holding it open for writing in this process: the
        /// bytes go to a plain file beside it, and `sh` copies them into place. A descriptor of ours,
        /// even close-on-exec, is inherited for an instant by every child another test forks
        /// meanwhile (until it execs), and running the file in that instant fails with ETXTBSY.
        static func writeExecutable(_ text: String, to path: String) throws {
            try writeExecutable(Data(text.utf8), to: path)
        }

        static func writeExecutable(_ data: Data, to path: String) throws {
            let source = path + ".bytes"
            try data.write(to: URL(fileURLWithPath: source))
            defer { unlink(source) }
            let copied = try Spawn.runBlocking(["/bin/sh", "-c", #"cat "$1" > "$2" && chmod 755 "$2""#, "sh", source, path],
                                               environment: [:])
            guard copied.status == 0 else { throw Spawn.Failure(description: "cannot write \(path): \(copied.stderr)") }
        }

        func hasRecord(_ name: String) -> Bool { FileManager.default.fileExists(atPath: folder.appending(path: "\(name).record").path) }

        /// An environment whose PATH is this folder alone: no browser installed here is ever found.
        func environment(browser: String?) -> [String: String] {
            var environment = ["PATH": folder.path]
            environment["BROWSER"] = browser
            return environment
        }
    }

    @Test func wordsSplitLikeAShellWithoutOne() {
        #expect(LinkOpener.words("firefox --new-tab") == ["firefox", "--new-tab"])
        #expect(LinkOpener.words(#"  open -a "Google Chrome"  %s "#) == ["open", "-a", "Google Chrome", "%s"])
        #expect(LinkOpener.words(#"a 'b c' d\ e "f\"g" ''"#) == ["a", "b c", "d e", "f\"g", ""])
        #expect(LinkOpener.substitute("--url=%s", url: "U") == "--url=U")
        #expect(LinkOpener.substitute("100%% %s%", url: "U") == "100% U%")
    }

    @Test func commandLinesPutTheURLWherePercentSSaysElseLast() {
        #expect(LinkOpener.commandLines(browser: "firefox --new-tab", url: "U") == [["firefox", "--new-tab", "U"], ["xdg-open", "U"]])
        #expect(LinkOpener.commandLines(browser: "open -a %s --fresh", url: "U") == [["open", "-a", "U", "--fresh"], ["xdg-open", "U"]])
        #expect(LinkOpener.commandLines(browser: "w3m:lynx -n::", url: "U") == [["w3m", "U"], ["lynx", "-n", "U"], ["xdg-open", "U"]])
        #expect(LinkOpener.commandLines(browser: nil, url: "U") == [["xdg-open", "U"]])
    }

    @Test func aBrowserWithArgumentsStartsDetachedWithTheURLLast() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("firefox")
        var suspended = 0
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "firefox --new-tab")) { body in
            suspended += 1
            body()
        }
        #expect(outcome == .success("firefox"))
        #expect(browsers.record("firefox") == ["--new-tab", Self.link, "NO-TERMINAL"])
        #expect(suspended == 0, "a graphical browser leaves the screen alone")
    }

    @Test func theFirstBrowserOfTheListThatExistsIsUsedWithPercentS() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("open")
        try browsers.make("chromium")
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "no-such-browser:open -a %s:chromium")) { $0() }
        #expect(outcome == .success("open"))
        #expect(browsers.record("open") == ["-a", Self.link, "NO-TERMINAL"])
        usleep(100_000)
        #expect(!browsers.hasRecord("chromium"))
    }

    @Test func aPathInBrowserIsUsedAsIs() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        let script = try browsers.make("my browser")
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: ["PATH": "", "BROWSER": "'\(script.path)' %s"]) { $0() }
        #expect(outcome == .success("my browser"))
        #expect(browsers.record("my browser") == [Self.link, "NO-TERMINAL"])
    }

    @Test func theBrowserGetsTheEnvironmentAsTheUserLeftIt() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        let script = browsers.folder.appending(path: "envbrowser")
        let record = browsers.folder.appending(path: "envbrowser.record").path
        try Browsers.writeExecutable("""
            #!/bin/sh
            { echo "${\(GnuTLSImplicitInit.variable)-unset}"; echo END; } > '\(record)'

            """, to: script.path)
        // As in riffle's main: riffle sets the variable for itself unless the user did.
        let riffleSetIt = GnuTLSImplicitInit.skipped
        var environment = ProcessInfo.processInfo.environment
        #expect(environment[GnuTLSImplicitInit.variable] != nil)
        environment["BROWSER"] = script.path
        #expect(LinkOpener.open(URL(string: Self.link)!, environment: environment) { $0() } == .success("envbrowser"))
        let seen = browsers.record("envbrowser")
        if riffleSetIt {
            #expect(seen == ["unset"], "riffle's own GnuTLS setting is not passed on to the browser")
        } else {
            #expect(seen == [environment[GnuTLSImplicitInit.variable]!], "the user's own setting is")
        }
    }

    @Test func withoutBrowserXdgOpenIsUsed() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("xdg-open")
        #expect(LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: nil)) { $0() } == .success("xdg-open"))
        #expect(browsers.record("xdg-open") == [Self.link, "NO-TERMINAL"])
    }

    @Test func aTerminalBrowserRunsInsideSuspendAndIsWaitedFor() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("w3m")
        var events: [String] = []
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "w3m")) { body in
            events.append("suspend")
            body()
            events.append(browsers.hasRecord("w3m") ? "resume after w3m ran" : "resume before w3m ran")
        }
        #expect(outcome == .success("w3m"))
        #expect(events == ["suspend", "resume after w3m ran"])
        #expect(browsers.record("w3m")?.first == Self.link)
    }

    @Test func aTerminalBrowserThatFailsSaysSo() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("lynx", status: 3)
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "lynx -accept_all_cookies")) { $0() }
        #expect(outcome == .failure(.exited(program: "lynx", status: 3)))
        #expect(outcome.failureText == "lynx exited with status 3")
    }

    /// A graphical browser started without a display: it fails after riffle has handed it the link,
    /// and what it said on standard error is what the reader needs to know.
    @Test func aDetachedBrowserThatFailsReportsItsFirstLineOfErrors() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try Browsers.writeExecutable("""
        #!/bin/sh
        printf '\\n  Error: no DISPLAY environment variable specified\\033[2J\\n' >&2
        printf 'second line\\n' >&2
        exit 1

        """, to: browsers.folder.appending(path: "firefox").path)
        let reports = Reports()
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "firefox")) { $0() }
            exited: { reports.add($0) }
        #expect(outcome == .success("firefox"), "handed over: the failure comes later")
        #expect(reports.waitForOne())
        #expect(reports.all == [.exited(program: "firefox", status: 1, message: "Error: no DISPLAY environment variable specified␛[2J")])
        #expect(reports.all.first?.description == "firefox exited with status 1: Error: no DISPLAY environment variable specified␛[2J")
    }

    /// A browser that fails silently still says its status; one that succeeds is never reported,
    /// whatever it wrote to standard error (firefox's warnings).
    @Test func aSilentFailureSaysItsStatusAndSuccessIsQuiet() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try Browsers.writeExecutable("#!/bin/sh\nexit 7\n", to: browsers.folder.appending(path: "chromium").path)
        try Browsers.writeExecutable("#!/bin/sh\necho 'Gtk-WARNING: cannot open theme' >&2\nexit 0\n",
                                     to: browsers.folder.appending(path: "quiet").path)
        let reports = Reports()
        #expect(LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "quiet")) { $0() }
            exited: { reports.add($0) } == .success("quiet"))
        #expect(LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "chromium")) { $0() }
            exited: { reports.add($0) } == .success("chromium"))
        // The watches run on threads of their own; the quiet one's browser exited before the other was
        // started, so by the time the other's report is in, it has long decided (to keep quiet).
        #expect(reports.waitForOne())
        #expect(reports.all.map(\.description) == ["chromium exited with status 7"])
    }

    @Test func theFirstLineIsTheFirstWithText() {
        #expect(LinkOpener.firstLine(of: Array("\n \t\nfirst\r\nsecond".utf8)) == "first")
        #expect(LinkOpener.firstLine(of: Array(" \n\n".utf8)) == nil)
        #expect(LinkOpener.firstLine(of: Array(String(repeating: "x", count: 500).utf8))?.count == 200)
    }

    @Test func debiansWwwBrowserLinkToATerminalBrowserCountsAsOne() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        let elinks = try browsers.make("elinks")
        try FileManager.default.createSymbolicLink(atPath: browsers.folder.appending(path: "sensible").path, withDestinationPath: elinks.path)
        #expect(LinkOpener.isTerminalBrowser(browsers.folder.appending(path: "sensible").path))
        #expect(!LinkOpener.isTerminalBrowser("/usr/bin/firefox"))
    }

    @Test func nothingToRunIsOneLineNamingWhatWasTried() throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        let outcome = LinkOpener.open(URL(string: Self.link)!, environment: browsers.environment(browser: "nope --x:nada")) { $0() }
        #expect(outcome.failureText == "no browser to open links: none of nope, nada, xdg-open was found (set $BROWSER)")
    }

    @Test(arguments: ["file:///etc/passwd", "javascript:alert(1)", "-oProxyCommand=x", "ftp://example.com/x"])
    func onlyWebLinksAreOpened(link: String) throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("xdg-open")
        let url = try #require(URL(string: link))
        let outcome = LinkOpener.open(url, environment: browsers.environment(browser: nil)) { $0() }
        #expect(outcome == .failure(.notWeb(link)))
        usleep(100_000)
        #expect(!browsers.hasRecord("xdg-open"))
    }

    /// Links built to run a command when `%s` is put in a shell line: each would create a file in the
    /// test's folder (`FILE` stands for its path).
    static let shellAttacks = [
        "https://x.test/$(touch$IFS/FILE)",
        "https://x.test/`touch${IFS}FILE`",
        "https://x.test/a;touch${IFS}FILE",
        "https://x.test/a|touch${IFS}FILE",
        "https://x.test/a>FILE",
        "https://x.test/a'$(touch${IFS}FILE)'\"$(touch${IFS}FILE)\"",
        "https://x.test/a\ntouch${IFS}FILE",
        "https://x.test/?q=1&touch${IFS}FILE",
        "https://x.test/?q=1&x=$(touch${IFS}FILE)",
        "https://x.test/?q=1&x=1>FILE",
        "https://x.test/#a&touch${IFS}FILE",
        "https://$(touch${IFS}FILE).test/",
        "https://u$(touch${IFS}FILE)@x.test/",
    ]

    /// README says not to wrap `%s` in a shell; people do (`sh -c "firefox %s &"`). The link is one
    /// inert word even then: the shell runs the browser with it and nothing else.
    @Test(arguments: [#"sh -c "browser %s""#, #"sh -c "browser '%s' &""#, #"sh -c 'browser "%s"; true'"#])
    func aShellAroundPercentSRunsNothingOfTheLink(line: String) throws {
        let browsers = try Browsers()
        defer { browsers.cleanUp() }
        try browsers.make("browser")
        let file = browsers.folder.appending(path: "FILE").path
        let environment = ["PATH": "\(browsers.folder.path):/usr/bin:/bin", "BROWSER": line]
        for attack in Self.shellAttacks {
            let link = attack.replacingOccurrences(of: "FILE", with: file)
            let lines = LinkOpener.commandLines(browser: line, url: link)
            let command = try #require(LinkOpener.resolve(lines, path: environment["PATH"]))
            #expect(command.arguments.count == 3, "sh -c LINE: \(command.arguments)")
            // As a terminal browser runs: waited for, so whatever the line ran has finished.
            _ = LinkOpener.start(command, environment: environment, inTerminal: true)
            #expect(!FileManager.default.fileExists(atPath: file), "\(link) created a file through \(line)")
            try? FileManager.default.removeItem(atPath: file)
            let record = try #require(browsers.record("browser"), "the browser ran for \(link)")
            #expect(record.count == 2, "the link arrived as one word: \(record)")
            // Unquoted, the shell splits the link at the query's `&` (structure, kept): the browser gets
            // what comes before it, and what comes after runs nothing.
            let inert = InertLink.encode(link)
            #expect(record.first == (line.contains("'%s'") || line.contains(#""%s""#) ? inert : String(inert.prefix { $0 != "&" })))
            try FileManager.default.removeItem(at: browsers.folder.appending(path: "browser.record"))
        }
    }
}

/// What the exit watches reported, from their threads.
final class Reports: Sendable {
    private let reports = Mutex<[LinkOpener.Failure]>([])
    func add(_ failure: LinkOpener.Failure) { reports.withLock { $0.append(failure) } }
    var all: [LinkOpener.Failure] { reports.withLock { $0 } }

    /// Waits up to `patience` for a report; whether one came.
    func waitForOne() -> Bool {
        let deadline = ContinuousClock.now + patience
        while all.isEmpty, ContinuousClock.now < deadline { usleep(10_000) }
        return !all.isEmpty
    }
}

extension Result where Failure == LinkOpener.Failure {
    /// The failure's one line, nil on success.
    var failureText: String? {
        if case .failure(let failure) = self { failure.description } else { nil }
    }
}
