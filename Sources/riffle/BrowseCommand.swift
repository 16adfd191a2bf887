import DemoServer
import Foundation
import NcursesTerminal
import RiffleBrowser
import RiffleKit

/// `riffle [URL]`: the interactive browser.
enum BrowseCommand {
    static func run(_ arguments: Arguments) throws(Arguments.UsageError) -> Int32 {
        // Everything that can be wrong with the command line is reported before the terminal is touched.
        guard arguments.positionals.count <= 1 else {
            throw .init("expected one feed, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        let firstPage = try arguments.integer("--first-page", in: Limits.firstPage)
        let demoFailPage = try arguments.integer("--demo-fail", in: Limits.page)
        let maxAge = try arguments.integer("--max-age", in: Limits.maxAge)
        let themeName = try arguments.choice("--theme", in: ThemeFile.names)
        var feed: Feed?
        if let feedArgument = arguments.positionals.first {
            feed = try FeedResolver.resolve(feedArgument, firstPage: firstPage)
        }
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        guard isatty(STDOUT_FILENO) == 1 else { fail("standard output is not a terminal; the browser needs one", status: 2) }
        guard isatty(STDIN_FILENO) == 1 else { fail("standard input is not a terminal; the browser needs one for keys", status: 2) }

        var demo: DemoFeedServer?
        if feed == nil {
            do {
                let server = try DemoFeedServer(failPage: demoFailPage)
                demo = server
                feed = try Feed(template: server.template, name: "riffle demo", cacheIdentity: "riffle-demo")
            } catch {
                fail("could not start the demo feed: \(error)", status: 1)
            }
        }
        guard let feed else { return 1 }
        defer { demo?.stop() }
        if demo != nil {
            // The demo always starts from its server, so the spinner and --demo-fail are seen.
            try? FileManager.default.removeItem(at: PageStore(cacheDirectory: cacheDirectory, feedID: feed.id).directory)
        }

        signal(SIGPIPE, SIG_IGN)
        let notices = Notices()
        let loader = PageLoader(feed: feed, cacheDirectory: cacheDirectory,
                                client: Network.client(for: feed, plugins: [RetryNotice(notices: notices)]))
        // https://no-color.org: any non-empty NO_COLOR turns colours off, whatever the theme.
        let noColor = !(ProcessInfo.processInfo.environment["NO_COLOR"] ?? "").isEmpty
        let theme: Theme
        do { theme = try ThemeFile.load(noColor ? "mono" : themeName ?? "dark") } catch { fail("\(error)", status: 1) }
        let screen = NcursesScreen(theme: theme, colors: !noColor)
        let pages = BrowsePages(loader: loader, maxAge: maxAge)
        // A terminal browser gets the terminal: the screen is suspended while it runs.
        let open = { (url: URL) in LinkOpener.open(url, suspend: { body in screen.suspended(body) })?.description }
        return BrowserLoop(terminal: screen, pages: pages, title: feed.name, open: open, notices: notices).run()
    }
}

/// The browser's pages: the loader, with `--max-age` revalidating a stored page that is too old (it is
/// still painted first, and still shown, stale, when the network fails).
struct BrowsePages: PageSourcing {
    let loader: PageLoader
    let maxAge: Int?

    func load(_ number: Int, policy: CachePolicy) async throws(RiffleError) -> Page {
        try await MaxAge.load(number, policy: policy, maxAge: maxAge, loader: loader)
    }

    func peekCachedPage(_ number: Int) -> Page? { loader.peekCachedPage(number) }
}
