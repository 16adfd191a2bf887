import DemoServer
import Foundation
import NcursesTerminal
import RiffleBrowser
import RiffleKit
import RiffleReading

/// `riffle [FEED]`: the interactive browser.
enum BrowseCommand {
    static func run(_ arguments: Arguments) throws(Arguments.UsageError) -> Int32 {
        // Everything that can be wrong with the command line is reported before the terminal is touched.
        guard arguments.positionals.count <= 1 else {
            throw .init("expected one feed, got \(arguments.positionals.count): \(arguments.positionals.joined(separator: " "))")
        }
        let environment = ProcessInfo.processInfo.environment
        let firstPage = try arguments.integer("--first-page", in: Limits.firstPage)
        let demoFailPage = try arguments.integer("--demo-fail", in: Limits.page)
        let maxAge = try arguments.integer("--max-age", in: Limits.maxAge)
        let themeName = try arguments.choice("--theme", in: ThemeFile.names)
        let watch = try arguments.values["--watch"].map { text throws(Arguments.UsageError) in
            guard let seconds = Interval.seconds(text) else {
                throw .init("option --watch needs an interval from 10s to 1 day, such as 90, 30s, 5m or 1h, got '\(text)'")
            }
            return seconds
        }
        let config = try ConfigFile.load(environment: environment)
        // The feed: the argument, else the config's default, else the feed list when the feeds file
        // has feeds, else the demo.
        var feed: Feed?
        var feedName = arguments.positionals.first ?? config.feed
        if let name = feedName, DemoFeedCommand.isBuiltIn(name, environment: environment) {
            // `riffle demo`: opened as the feed list opens it, its server started by the shelf.
            feed = nil
        } else if let name = arguments.positionals.first {
            feed = try FeedResolver.resolve(name, firstPage: firstPage, forNetwork: true)
        } else if let name = config.feed {
            // A feed config.json names is config.json's mistake when it is wrong: the message says where to fix it.
            do { feed = try FeedResolver.resolve(name, firstPage: firstPage, forNetwork: true) } catch {
                throw .init("\(ConfigFile.location(environment: environment).path): field 'feed': \(error.description)")
            }
        } else if try !FeedResolver.Catalogs.load(environment: environment).user.definitions.isEmpty {
            feedName = nil
        } else {
            feedName = FeedShelf.demoName
        }
        let cacheDirectory = try CacheLocation.checked(arguments, create: true)
        guard isatty(STDOUT_FILENO) == 1 else { fail("standard output is not a terminal; the browser needs one", status: 2) }
        guard isatty(STDIN_FILENO) == 1 else { fail("standard input is not a terminal; the browser needs one for keys", status: 2) }

        signal(SIGPIPE, SIG_IGN)
        // The composition root: one reading log, one response cache and one transport for the
        // process, whatever feeds are opened.
        let log = ReadingLog(cacheDirectory: cacheDirectory)
        // A client about to retry says so in a toast, and so does the cache when what arrived cannot
        // be kept (a full disk, a read-only or locked cache), as `riffle dump` says it on stderr.
        let notices = Notices()
        let cache = Network.cache(cacheDirectory, log: { notices.post($0) })
        let transport = Network.transport()
        let shelf = FeedShelf(cache: cache, transport: transport, log: log, maxAge: maxAge, demoFailPage: demoFailPage, notices: notices,
                              environment: environment)
        defer { shelf.stop() }
        let start: BrowserLoop<NcursesScreen>.Start
        if let feed, let feedName {
            // A URL is filed in the reading log (and listed as opened before) as the feed keeps it,
            // its user-info hidden.
            let name = FeedResolver.isTemplate(feedName) ? Feed.hidingCredentials(feedName) : feedName
            start = .feed(FeedShelf.opened(feed, name: name, cache: cache, transport: transport, maxAge: maxAge, notices: notices))
        } else if feedName == FeedShelf.demoName {
            do { start = .feed(try shelf.open(FeedShelf.demoName)) } catch { fail(error.description, status: 1) }
        } else {
            start = .feedList
        }

        // https://no-color.org: any non-empty NO_COLOR turns colours off, whatever the theme.
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty
        let theme: Theme
        let chosenTheme = noColor ? "mono" : themeName ?? config.theme ?? "dark"
        do { theme = try ThemeFile.load(chosenTheme) } catch { fail("\(error)", status: 1) }
        let screen = NcursesScreen(theme: theme, colors: !noColor)
        // config.json's browser wins over $BROWSER. A terminal browser gets the terminal: the screen
        // is suspended while it runs.
        var linkEnvironment = environment
        if let browser = config.browser { linkEnvironment["BROWSER"] = browser }
        // Every open says where it went; a detached browser that fails later (no display) says so in
        // a toast too, with the first line it wrote to standard error.
        let open = { (url: URL) -> String in
            let outcome = LinkOpener.open(url, environment: linkEnvironment, suspend: { body in screen.suspended(body) },
                                          exited: { failure in notices.post(failure.description) })
            switch outcome {
            case .success(let browser): return "opened in \(browser)"
            case .failure(.noOpener(let tried)) where config.browser != nil:
                return "\(ConfigFile.location(environment: environment).path): field 'browser': none of \(tried.joined(separator: ", ")) was found"
            case .failure(let failure): return failure.description
            }
        }
        // OSC 52: the terminal's clipboard, over ssh too; one path whatever the terminal.
        let copy = { (text: String) in screen.setClipboard(text) ? nil : "the terminal did not take the copy" }
        var settings = BrowserLoop<NcursesScreen>.Settings()
        settings.keymap = config.keymap
        if let textWidth = config.textWidth { settings.textWidth = textWidth }
        settings.seen = config.seen
        settings.marksWithGlyphs = chosenTheme == "mono"
        settings.watch = watch
        settings.watchInterval = watch ?? config.watch ?? 300
        let services = BrowserLoop<NcursesScreen>.Services(open: open, copy: copy, log: log, shelf: shelf, notices: notices)
        return BrowserLoop(terminal: screen, start: start, services: services, settings: settings).run()
    }
}

/// The browser's pages: the loader, with `--max-age` revalidating a stored page that is too old (it is
/// still painted first, and still shown, stale, when the network fails), and its items' comments.
struct BrowsePages: PageSourcing {
    let loader: PageLoader
    let maxAge: Int?
    /// The removal of the feed's stored pages, which every load waits for (the demo's start); while
    /// there is one, no first frame is painted from the disk.
    var freshStart: Task<Void, Never>?

    func load(_ number: Int, policy: CachePolicy) async throws(FeedError) -> Page {
        await freshStart?.value
        return try await MaxAge.load(number, policy: policy, maxAge: maxAge, loader: loader)
    }

    func peekCachedPage(_ number: Int) -> Page? { freshStart == nil ? loader.peekCachedPage(number) : nil }

    func confirmPeekedPages() -> [PeekCorrection] { loader.confirmPeekedPages() }

    var hasComments: Bool { loader.hasComments }

    func comments(for item: Item, policy: CachePolicy) async throws(FeedError) -> CommentThread? {
        try await loader.comments(for: item, policy: policy)
    }

    func replies(toStub stub: Int, in thread: CommentThread, for item: Item) async throws(FeedError) -> CommentThread.Replies {
        try await loader.replies(toStub: stub, in: thread, for: item, policy: .returnCacheElseLoad)
    }

    func discussionPage(for item: Item) -> URL? { loader.discussionPage(for: item) }

    var fields: FieldMapping { loader.fields }

    func readFields(with fields: FieldMapping) { loader.readFields(with: fields) }

    func fieldPlan(forPage number: Int) throws(FeedError) -> FieldPlan? { try loader.fieldPlan(forPage: number) }
}
