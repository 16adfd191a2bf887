import Foundation
import RiffleKit
import RiffleReading
import RiffleTUI

/// The browser's run loop: one thread owns the terminal and the state; effects run as tasks and post
/// their results to a mailbox that the loop drains between key presses (bubbletea's Cmd → Msg).
///
/// ```swift
/// let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
/// let loader = PageLoader(feed: feed, cacheDirectory: URL(filePath: NSTemporaryDirectory()).appending(path: "riffle-example"))
/// let screen = InMemoryTerminal(size: Size(width: 80, height: 24), events: [.key(.character("q"))])
/// let loop = BrowserLoop(terminal: screen, pages: loader, title: feed.name)
/// let status = loop.run()   // until q or a signal; the terminal is restored
/// ```
package struct BrowserLoop<Terminal: TerminalBackend> {
    /// Where the browser starts.
    package enum Start: Sendable {
        /// In a feed.
        case feed(OpenedFeed)
        /// In the feed list.
        case feedList
    }

    /// What the browser does beyond its pages, each optional: tests and scripts leave them out.
    package struct Services {
        /// Opens a link (`o`, `C`); returns what the toast says: where it was opened ("opened in
        /// firefox"), or why it could not be.
        package var open: (URL) -> String
        /// Puts text on the clipboard (`y`, `Y`); returns why it could not, or nil.
        package var copy: (String) -> String?
        /// Seen state and search; opened after the first frame.
        package var log: ReadingLog?
        /// The feeds `F` lists and opens.
        package var shelf: (any FeedShelving)?
        /// Messages from elsewhere (a retry about to happen) to show as toasts.
        package var notices: Notices

        package init(open: @escaping (URL) -> String = { _ in "no program to open links with" },
                    copy: @escaping (String) -> String? = { _ in "no clipboard" },
                    log: ReadingLog? = nil, shelf: (any FeedShelving)? = nil, notices: Notices = Notices()) {
            self.open = open
            self.copy = copy
            self.log = log
            self.shelf = shelf
            self.notices = notices
        }
    }

    /// How the browser behaves: the user's keys and the like (RiffleTUI's `Settings`).
    package typealias Settings = RiffleTUI.Settings

    let terminal: Terminal
    let start: Start
    let services: Services
    let settings: Settings
    let now: () -> Date

    /// A loop starting at `start` on `terminal`.
    package init(terminal: Terminal, start: Start, services: Services = Services(), settings: Settings = Settings(),
                now: @escaping () -> Date = Date.init) {
        self.terminal = terminal
        self.start = start
        self.services = services
        self.settings = settings
        self.now = now
    }

    /// A loop browsing `pages` on `terminal`.
    /// - Parameters:
    ///   - title: the feed's name, shown in the header.
    ///   - now: the clock ticks read.
    ///   - open: opens a link (`o`); returns what the toast says (where it opened, or why it could not).
    ///   - notices: messages from elsewhere (a retry about to happen) to show as toasts.
    package init(terminal: Terminal, pages: some PageSourcing, title: String, now: @escaping () -> Date = Date.init,
                open: @escaping (URL) -> String = { _ in "no program to open links with" }, notices: Notices = Notices()) {
        self.init(terminal: terminal, start: .feed(OpenedFeed(pages: pages, title: title, reference: nil)),
                  services: Services(open: open, notices: notices), now: now)
    }

    /// Runs until the user quits or a signal arrives, restores the terminal, and returns the exit
    /// status: 0, or 128 + the signal's number (SIGINT counts as quitting).
    ///
    /// Seen marks made just before the end are written before it returns: it waits for the reading
    /// log's jobs (up to `logWait` when another program holds the log's lock, saying so on standard
    /// error), after the terminal is restored.
    package func run() -> Int32 {
        let run = Run(browser: self)
        let status = run.run()
        terminal.restore()
        run.finishLog()
        return status
    }

    /// How long the end waits for the reading log when another program holds its lock.
    static var logWait: Duration { .seconds(10) }
}

extension BrowserLoop {
    /// One run: the state, the feed being read and the work in flight, all on the loop's thread.
    private final class Run {
        let browser: BrowserLoop
        let mailbox = Mailbox()
        let log: LogQueue?
        var state: AppState
        /// The feed whose pages are shown, and how many feeds were opened before it (the tag of its answers).
        var feed: OpenedFeed?
        var generation = 0
        var reloads: Task<Void, Never>?
        var painted = false

        init(browser: BrowserLoop) {
            self.browser = browser
            let mailbox = mailbox
            log = browser.services.log.map { LogQueue(log: $0) { mailbox.post(.notice($0)) } }
            let loop = browser
            switch loop.start {
            case .feed(let opened):
                feed = opened
                state = AppState(feedTitle: opened.title, size: loop.terminal.size, now: loop.now(), settings: loop.settings)
                state.feed.commentsAvailable = opened.pages.hasComments
                state.list.setHide(opened.feed?.hide ?? [])
            case .feedList:
                state = AppState.feedList(size: loop.terminal.size, now: loop.now(), settings: loop.settings)
            }
        }

        func run() -> Int32 {
            let loop = browser
            var effects = update(.start)
            // Loads of pages the first frame shows from disk: they start once it is painted.
            var afterPaint: [Effect] = []
            while true {
                while !effects.isEmpty {
                    let due = effects
                    effects = []
                    for effect in due {
                        if let answered = answerFromDisk(effect) {
                            effects += update(answered)
                            if !painted {
                                afterPaint.append(effect)
                                continue
                            }
                        }
                        effects += perform(effect)
                    }
                }
                if state.shouldQuit { return 0 }
                loop.terminal.draw(App.view(state))
                // What was painted from the files' own records is checked against the cache's index
                // now that it is on screen, before any key is read; what the index describes otherwise
                // is corrected in the next frame, at once.
                let corrections = feed?.pages.confirmPeekedPages() ?? []
                for correction in corrections { effects += update(.pageCorrected(number: correction.number, page: correction.page)) }
                if !painted {
                    // The reading log is opened only now, and the disk's pages are loaded (revalidated
                    // when stale) only now: nothing of either stands before the first frame.
                    painted = true
                    log?.start()
                    openedFeed()
                    for effect in afterPaint { effects += perform(effect) }
                    afterPaint = []
                }
                if !corrections.isEmpty || !effects.isEmpty { continue }
                if let signal = loop.terminal.takeQuitSignal() {
                    // Ctrl-C and friends end the program cleanly; 128+n is the shell's convention.
                    return signal == SIGINT ? 0 : 128 + signal
                }
                // Short waits while something animates or loads, so results and frames show promptly.
                let busy = state.isAnimating
                var actions: [Action] = []
                if let event = loop.terminal.nextEvent(timeoutMilliseconds: busy ? 30 : 250) { actions.append(.event(event)) }
                actions += mailbox.drain(current: generation)
                actions += loop.services.notices.drain().map { .notice($0) }
                actions.append(.tick(loop.now()))
                for action in actions { effects += update(action) }
            }
        }

        func update(_ action: Action) -> [Effect] { App.update(&state, action) }

        /// A page on disk is shown on the spot, so the first frame already has it: no hop through the
        /// source's executor and the mailbox. The load still runs (after the first frame when it is
        /// for the first frame), and if the cache finds the page stale its revalidated (or
        /// refetched) copy replaces this one when it arrives.
        func answerFromDisk(_ effect: Effect) -> Action? {
            guard case .load(let page, .returnCacheElseLoad) = effect, let cached = feed?.pages.peekCachedPage(page) else { return nil }
            return .pageLoaded(cached)
        }

        /// Runs an effect. Reloads run one after another in the order asked (`R` reloads pages 1...N,
        /// and a cursor feed's page N needs page N-1's fresh answer first).
        func perform(_ effect: Effect) -> [Effect] {
            let mailbox = mailbox, generation = generation, loop = browser
            switch effect {
            case .load(let page, let policy):
                guard let pages = feed?.pages else { return [] }
                let previous = policy == .reloadIgnoringCache ? reloads : nil
                let task = Task {
                    await previous?.value
                    do throws(FeedError) {
                        mailbox.post(.pageLoaded(try await pages.load(page, policy: policy)), feed: generation)
                    } catch {
                        mailbox.post(.pageFailed(page: page, error: error), feed: generation)
                    }
                }
                if policy == .reloadIgnoringCache { reloads = task }
            case .open(let url):
                return update(.notice(loop.services.open(url)))
            case .quit:
                state.shouldQuit = true
            case .record(let items):
                guard let log, let reference = feed?.reference else { return [] }
                log.enqueue { (log) throws(ReadingLog.Failure) in try await log.record(items, feed: reference) }
            case .mark(let items, let seen):
                guard let log, let reference = feed?.reference else { return [] }
                log.enqueue { (log) throws(ReadingLog.Failure) in try await log.record(items, feed: reference, seen: seen) }
            case .save(let item, let saved):
                guard let log, let reference = feed?.reference else { return [] }
                log.enqueue { (log) throws(ReadingLog.Failure) in
                    if saved { try await log.save(item, feed: reference) } else { try await log.unsave(key: item.readingKey, feed: reference.id) }
                }
            case .unsave(let feedID, let key):
                guard let log else { return [] }
                let reference = feed?.reference
                log.enqueue { (log) throws(ReadingLog.Failure) in
                    try await log.unsave(key: key, feed: feedID)
                    // The open feed's list drops its "saved" mark when it was one of its items.
                    if let reference { mailbox.post(.savedLoaded(try await log.savedKeys(feed: reference.id)), feed: generation) }
                }
            case .listSaved:
                listSaved()
            case .refreshFeeds(let entries):
                guard let shelf = loop.services.shelf else {
                    return entries.flatMap { update(.feedRefreshed(name: $0.name, FeedSummary(unseen: nil, fetchedAt: nil, failure: "no feeds here"))) }
                }
                Task {
                    await shelf.refresh(entries, atOnce: 4) { name, summary in mailbox.post(.feedRefreshed(name: name, summary)) }
                }
            case .loadComments(let item, let policy):
                guard let pages = feed?.pages else { return [] }
                let key = item.readingKey
                Task {
                    do throws(FeedError) {
                        if let thread = try await pages.comments(for: item, policy: policy) {
                            mailbox.post(.commentsLoaded(item: key, thread), feed: generation)
                        } else {
                            mailbox.post(.notice("no comments: this feed does not say where they are"), feed: generation)
                        }
                    } catch {
                        mailbox.post(.commentsFailed(item: key, error), feed: generation)
                    }
                }
            case .expandStub(let item, let thread, let index):
                guard let pages = feed?.pages, thread.comments.indices.contains(index) else { return [] }
                let key = item.readingKey, stub = thread.comments[index]
                Task {
                    do throws(FeedError) {
                        let replies = try await pages.replies(toStub: index, in: thread, for: item)
                        mailbox.post(.repliesLoaded(item: key, index: index, stub: stub, replies), feed: generation)
                    } catch {
                        mailbox.post(.repliesFailed(item: key, index: index, stub: stub, error), feed: generation)
                    }
                }
            case .noteDiscussion(let item, let newest):
                guard let log, let reference = feed?.reference else { return [] }
                let key = item.readingKey, mailbox = mailbox, generation = generation
                log.enqueue { (log) throws(ReadingLog.Failure) in
                    let visit = try await log.noteDiscussion(feed: reference.id, key: key, newest: newest)
                    mailbox.post(.discussionNoted(item: key, since: visit?.newest), feed: generation)
                }
            case .openDiscussion(let item):
                guard let url = feed?.pages.discussionPage(for: item) else { return update(.notice("no discussion page for this item")) }
                return update(.notice(loop.services.open(url)))
            case .copy(let text, let what):
                return update(.notice(loop.services.copy(text) ?? "copied \(what): \(Self.preview(text))"))
            case .search(let query, let order):
                guard let log else { return update(.searchFailed(query: query, "no reading log to search")) }
                // As each match's feed's list would: what its rules hide is left out (`H` lists it), and
                // the limit is of what is listed.
                let hiding = loop.services.shelf?.searchHiding() ?? .none
                log.enqueue(reportingFailure: false) { log in
                    do throws(ReadingLog.Failure) {
                        let matches = try await log.search(query, order: order, counting: { !hiding.hides($0) })
                        let hidden = Set(matches.indices.filter { hiding.hides(matches[$0]) })
                        mailbox.post(.searched(query: query, matches, hidden: hidden, unapplied: hiding.unapplied()))
                    } catch {
                        mailbox.post(.searchFailed(query: query, error.description))
                    }
                }
            case .listFeeds:
                guard let shelf = loop.services.shelf else {
                    listSaved()
                    return update(.feedsListed([]))
                }
                listSaved()
                Task {
                    let entries = await shelf.entries()
                    mailbox.post(.feedsListed(entries))
                    for entry in entries { mailbox.post(.feedSummarized(name: entry.name, await shelf.summary(of: entry))) }
                }
            case .renameFeed(let entry, let name):
                guard let shelf = loop.services.shelf else { return [] }
                Task {
                    do throws(OpenFailure) {
                        mailbox.post(.feedsChanged(try await shelf.rename(entry, to: name)))
                    } catch {
                        mailbox.post(.notice(error.description))
                    }
                }
            case .removeFeed(let entry):
                guard let shelf = loop.services.shelf else { return [] }
                Task {
                    do throws(OpenFailure) {
                        mailbox.post(.feedsChanged(try await shelf.remove(entry)))
                    } catch {
                        mailbox.post(.notice(error.description))
                    }
                }
            case .planFields(let number):
                guard let pages = feed?.pages else { return [] }
                Task {
                    do throws(FeedError) {
                        if let plan = try pages.fieldPlan(forPage: number) {
                            mailbox.post(.fieldsPlanned(page: number, plan, subtitle: pages.fields.subtitle), feed: generation)
                        } else {
                            mailbox.post(.fieldsPlanFailed(page: number, "page \(number) is not stored; r loads it again"), feed: generation)
                        }
                    } catch {
                        mailbox.post(.fieldsPlanFailed(page: number, error.description), feed: generation)
                    }
                }
            case .pinField(let pick):
                // The file first: what is shown is what a restart shows.
                guard let opened = feed, let name = opened.reference?.name, let shelf = loop.services.shelf else {
                    return update(.notice("this feed has no entry to save the pick in"))
                }
                do throws(OpenFailure) {
                    let pinned = try shelf.pin(pick, feed: opened.feed, openedAs: name)
                    opened.pages.readFields(with: pinned.fields)
                    // From the disk, at once, like the first frame.
                    let pages = state.list.pages.all.compactMap { opened.pages.peekCachedPage($0.number) }
                    return update(.fieldsPinned(message: pinned.message, pages: pages))
                } catch {
                    return update(.notice(error.description))
                }
            case .addHideRule(let rule):
                // The file first: what is hidden is what a restart hides.
                guard let opened = feed, let name = opened.reference?.name, let shelf = loop.services.shelf else {
                    return update(.notice("this feed has no entry to keep the rule in"))
                }
                do throws(OpenFailure) {
                    let (rules, message) = try shelf.addHideRule(rule, feed: opened.feed, openedAs: name)
                    feed?.feed?.hide = rules
                    return update(.hideRulesChanged(rules, message: message))
                } catch {
                    return update(.notice(error.description))
                }
            case .openFeed(let name):
                guard let shelf = loop.services.shelf else { return [] }
                do throws(OpenFailure) {
                    let opened = try shelf.open(name)
                    feed = opened
                    self.generation += 1
                    reloads = nil
                    let effects = update(.feedOpened(title: opened.title, hasComments: opened.pages.hasComments, hide: opened.feed?.hide ?? []))
                    openedFeed()
                    return effects
                } catch {
                    return update(.notice(error.description))
                }
            }
            return []
        }

        /// Waits for the reading log's jobs still queued (a mark made just before quitting, or one
        /// waiting for another program's lock), telling standard error when that takes long.
        func finishLog() {
            guard let log, !log.settle(within: .milliseconds(500)) else { return }
            let waiting = log.isWaitingForLock
            if waiting {
                Self.tell("riffle: saving seen marks: the reading log is locked by another program (waiting up to \(BrowserLoop.logWait.components.seconds) s)")
            }
            guard !log.settle(within: BrowserLoop.logWait), waiting || log.isWaitingForLock else { return }
            Self.tell("riffle: the reading log stayed locked by another program: the last seen marks were not saved")
        }

        private static func tell(_ line: String) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }

        /// Once a feed is shown (and the first frame painted): the log notes it was opened and
        /// answers which of its items were seen.
        func openedFeed() {
            guard painted, let log, let reference = feed?.reference else { return }
            let mailbox = mailbox, generation = generation
            // Two jobs: a log that cannot be written (read-only) still answers what was seen.
            log.enqueue { (log) throws(ReadingLog.Failure) in try await log.noteOpened(reference) }
            log.enqueue { (log) throws(ReadingLog.Failure) in
                mailbox.post(.seenLoaded(try await log.seenKeys(feed: reference.id)), feed: generation)
                mailbox.post(.savedLoaded(try await log.savedKeys(feed: reference.id)), feed: generation)
            }
        }

        /// The saved items, for the saved list and the feed list's count of them.
        func listSaved() {
            guard let log else { return mailbox.post(.savedListed([])) }
            let mailbox = mailbox
            log.enqueue { (log) throws(ReadingLog.Failure) in mailbox.post(.savedListed(try await log.savedItems())) }
        }

        /// What a toast shows of copied text: its start, on one line.
        static func preview(_ text: String) -> String {
            let line = text.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
            return line.count > 60 ? String(line.prefix(59)) + "…" : line
        }
    }
}
