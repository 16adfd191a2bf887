import DemoServer
import Foundation
import RiffleBrowser
import RiffleKit
import RiffleReading
import RiffleTUI
import Synchronization

/// The feeds the browser lists and opens (`F`, and the list at start): the feeds file's, the presets,
/// the feeds opened before (a preset with its argument, a URL), and the demo. Each opens as
/// `riffle NAME` would open it, and its unseen count comes from its pages on disk and the reading log.
final class FeedShelf: FeedShelving {
    /// The process's cache, transport and reading log: every feed opened shares them.
    let cache: ResponseCache
    let transport: CurlTransport
    let log: ReadingLog
    let maxAge: Int?
    let environment: [String: String]
    /// Where each feed's client tells of a retry about to happen.
    let notices: Notices
    /// The demo feed's server, started when the demo is first opened, stopped by `stop()`.
    private let demo: DemoServerSlot
    /// Whether the demo's next opening is its first since its server started: it then starts from
    /// that server, its stored pages removed first (`BrowsePages.freshStart`).
    private let demoStarted = Mutex(false)
    /// The presets and the feeds file as last read, with what the file was then (`FileStamp`): read
    /// again only when the file changed, not once per feed the list counts.
    private let catalogs = Mutex<(stamp: FileStamp?, catalogs: FeedResolver.Catalogs)?>(nil)
    /// How many times the feeds file was read (tests count them).
    let catalogReads = Mutex(0)

    /// The name the demo goes by in the list.
    static let demoName = "demo"

    init(cache: ResponseCache, transport: CurlTransport, log: ReadingLog, maxAge: Int?, demoFailPage: Int? = nil,
         notices: Notices = Notices(), environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.notices = notices
        self.cache = cache
        self.transport = transport
        self.log = log
        self.maxAge = maxAge
        self.demo = DemoServerSlot(failPage: demoFailPage)
        self.environment = environment
    }

    func stop() { demo.stop() }

    func entries() async -> [FeedEntry] {
        var entries: [FeedEntry] = []
        var names: Set<String> = []
        func add(_ entry: FeedEntry) { if names.insert(entry.name).inserted { entries.append(entry) } }
        if let catalogs = try? currentCatalogs() {
            for definition in catalogs.user.definitions {
                add(FeedEntry(name: definition.name, description: definition.description, argument: definition.argument, origin: .feedsFile))
            }
            for definition in catalogs.presets.definitions {
                add(FeedEntry(name: definition.name, description: definition.description, argument: definition.argument, origin: .preset))
            }
        }
        for opened in (try? await log.openedFeeds()) ?? [] where opened.feed.name != Self.demoName {
            add(FeedEntry(name: opened.feed.name, description: "opened before", origin: .recent))
        }
        add(FeedEntry(name: Self.demoName, description: "the built-in demo feed (on 127.0.0.1, offline)", origin: .demo))
        return entries
    }

    func summary(of entry: FeedEntry) async -> FeedSummary {
        guard entry.argument == nil, let feed = try? feed(named: entry.name, forNetwork: false) else {
            return FeedSummary(unseen: nil, fetchedAt: nil)
        }
        // Through the cache's reader: the pages it holds for the feed, as it holds them.
        let store = PageStore(cacheDirectory: cache.directory, feedID: feed.id)
        // Up to 50 stored pages: what the list can count without a wait.
        let numbers = store.pages(in: cache.reader).prefix(50)
        guard !numbers.isEmpty else { return FeedSummary(unseen: nil, fetchedAt: nil) }
        var keys: Set<String> = []
        var fetchedAt: Date?
        for number in numbers {
            // Read as the browser reads it (links that are paths resolved against the page's URL), so
            // the items' reading keys are the ones the browser marked seen.
            guard let (data, metadata) = store.read(number, in: cache.reader),
                  let items = try? ItemExtractor.items(inStoredPage: data, itemPath: feed.itemPath, fields: feed.fields,
                                                       baseURL: metadata?.baseURL ?? feed.url(forPage: 1))
            else { continue }
            // What the rules hide is not listed, so it is not counted unseen either.
            keys.formUnion(items.lazy.filter { item in !feed.hide.contains { $0.matches(item) } }.map(\.readingKey))
            if let date = metadata?.fetchedAt { fetchedAt = max(fetchedAt ?? date, date) }
        }
        let seen = (try? await log.seenKeys(feed: feed.id)) ?? []
        return FeedSummary(unseen: keys.subtracting(seen).count, fetchedAt: fetchedAt)
    }

    /// Page 1 of `entry` revalidated through the cache (`If-None-Match` when it has a stored copy, a
    /// 304 when unchanged), so the browser opens it with what was fetched; then its counts, with the
    /// items of that page the reading log never filed.
    func refresh(_ entry: FeedEntry) async -> FeedSummary {
        let feed: Feed
        do { feed = try self.feed(named: entry.name, forNetwork: true) } catch {
            return FeedSummary(unseen: nil, fetchedAt: nil, failure: error.description)
        }
        let loader = PageLoader(feed: feed, cache: cache, client: Network.client(for: feed, transport: transport))
        let page: Page
        do throws(FeedError) { page = try await loader.load(1, policy: .returnCacheThenLoad) } catch {
            return FeedSummary(unseen: nil, fetchedAt: nil, failure: "\(error)")
        }
        let listed = (try? await log.listedKeys(feed: feed.id)) ?? []
        var summary = await summary(of: entry)
        let shown = page.items.filter { item in !feed.hide.contains { $0.matches(item) } }
        summary.arrived = Set(shown.map(\.readingKey)).subtracting(listed).count
        return summary
    }

    func searchHiding() -> SearchHiding {
        let rules = HideRulesByFeed(catalogs: try? currentCatalogs())
        return SearchHiding(hides: { rules.hides($0) }, unapplied: { rules.fieldRules })
    }

    func open(_ name: String) throws(OpenFailure) -> OpenedFeed {
        let feed: Feed
        do { feed = try self.feed(named: name, forNetwork: true) } catch { throw OpenFailure(error.description) }
        let freshStart = name == Self.demoName && demoStarted.withLock { started in defer { started = false }; return started }
        return Self.opened(feed, name: name, cache: cache, transport: transport, maxAge: maxAge, notices: notices, freshStart: freshStart)
    }

    /// The browser's view of `feed`: its pages through a `PageLoader` on the cache, filed in the
    /// reading log under `name` (how it is opened again).
    /// - Parameter freshStart: remove the feed's stored pages before its first load (the demo, so that
    ///   its spinner and `--demo-fail` are seen); a failure to is a notice, and the stored pages show.
    static func opened(_ feed: Feed, name: String, cache: ResponseCache, transport: CurlTransport, maxAge: Int?, notices: Notices,
                       freshStart: Bool = false) -> OpenedFeed {
        // What the loader tells (a page at another origin, without the feed's credentials; a damaged
        // file removed) is a toast, as dump prints it on stderr.
        var configuration = PageLoader.Configuration()
        configuration.log = { notices.post($0) }
        let loader = PageLoader(feed: feed, cache: cache, client: Network.client(for: feed, transport: transport,
                                                                                 plugins: [RetryNotice(notices: notices)]),
                                configuration: configuration)
        // Through the cache's own removal: the rows and the regular files they name, one unlink each,
        // and the folder only when empty, so whatever else is in it stays.
        let clearing = freshStart ? Task {
            do throws(RiffleError) { try await loader.removeStoredPages() } catch {
                notices.post("\(feed.name) shows its stored pages: they could not be removed (\(error))")
            }
        } : nil
        return OpenedFeed(pages: BrowsePages(loader: loader, maxAge: maxAge, freshStart: clearing), title: feed.name,
                          reference: ReadingLog.FeedRef(id: feed.id, name: name, title: feed.name), feed: feed)
    }

    /// The feed called `name`: the demo (started on first use), or what `riffle NAME` would open.
    func feed(named name: String, forNetwork: Bool) throws(Arguments.UsageError) -> Feed {
        guard name == Self.demoName, (try? currentCatalogs())?.user[name] == nil else {
            return try FeedResolver.resolve(name, firstPage: nil, catalogs: currentCatalogs(), environment: environment, forNetwork: forNetwork)
        }
        guard forNetwork else { return try Self.demoFeed(template: Self.offlineDemoTemplate) }
        let (feed, started) = try demo.feed()
        // The demo always starts from its server, so the spinner and --demo-fail are seen.
        if started { demoStarted.withLock { $0 = true } }
        return feed
    }

    /// The presets and the feeds file: the ones read before while the file is as it was then (same
    /// size, modification time and inode), else read now.
    func currentCatalogs() throws(Arguments.UsageError) -> FeedResolver.Catalogs {
        let stamp = FileStamp(path: FeedsFileLocation.resolve(environment: environment).path)
        if let kept = catalogs.withLock({ $0 }), kept.stamp == stamp { return kept.catalogs }
        let read = try FeedResolver.Catalogs.load(environment: environment)
        catalogReads.withLock { $0 += 1 }
        catalogs.withLock { $0 = (stamp, read) }
        return read
    }

    /// The demo feed's template when it is only named (its pages cleared or described), without a server.
    static let offlineDemoTemplate = "http://127.0.0.1/api/items?page={page}"

    /// The demo feed on `template`; its pages are filed under one name whatever the port.
    static func demoFeed(template: String) throws(Arguments.UsageError) -> Feed {
        do { return try Feed(template: template, name: "riffle demo", cacheIdentity: "riffle-demo") } catch {
            throw .init("could not start the demo feed: \(error)")
        }
    }
}

/// What a file is at one moment, as `stat` tells it: a change of content, a replacement (an editor's
/// atomic save) or a truncation changes one of these. Nil for a file that is not there.
struct FileStamp: Equatable {
    var size: Int64
    var modified: timespec
    var inode: UInt64

    init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        size = Int64(info.st_size)
        modified = info.st_mtim
        inode = UInt64(info.st_ino)
    }

    static func == (a: FileStamp, b: FileStamp) -> Bool {
        a.size == b.size && a.inode == b.inode && a.modified.tv_sec == b.modified.tv_sec && a.modified.tv_nsec == b.modified.tv_nsec
    }
}
