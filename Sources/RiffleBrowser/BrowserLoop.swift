import Foundation
import RiffleKit
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
public struct BrowserLoop<Terminal: TerminalBackend, Pages: PageSourcing> {
    let terminal: Terminal
    let pages: Pages
    let title: String
    let now: () -> Date
    let open: (URL) -> String?
    let notices: Notices

    /// A loop browsing `pages` on `terminal`.
    /// - Parameters:
    ///   - title: the feed's name, shown in the header.
    ///   - now: the clock ticks read.
    ///   - open: opens a link (`o`); returns why it could not, or nil.
    ///   - notices: messages from elsewhere (a retry about to happen) to show as toasts.
    public init(terminal: Terminal, pages: Pages, title: String, now: @escaping () -> Date = Date.init,
                open: @escaping (URL) -> String? = { _ in "no program to open links with" }, notices: Notices = Notices()) {
        self.terminal = terminal
        self.pages = pages
        self.title = title
        self.now = now
        self.open = open
        self.notices = notices
    }

    /// Runs until the user quits or a signal arrives, restores the terminal, and returns the exit
    /// status: 0, or 128 + the signal's number (SIGINT counts as quitting).
    public func run() -> Int32 {
        let status = loop()
        terminal.restore()
        return status
    }

    private func loop() -> Int32 {
        let mailbox = Mailbox()
        var reloads: Task<Void, Never>?
        var state = AppState(feedTitle: title, size: terminal.size, now: now())
        var effects = App.update(&state, .start)
        while true {
            while !effects.isEmpty {
                let due = effects
                effects = []
                for effect in due {
                    if let answered = answerFromDisk(effect) { effects += App.update(&state, answered) }
                    perform(effect, mailbox: mailbox, state: &state, reloads: &reloads)
                }
            }
            if state.shouldQuit { return 0 }
            terminal.draw(App.view(state))
            if let signal = terminal.takeQuitSignal() {
                // Ctrl-C and friends end the program cleanly; 128+n is the shell's convention.
                return signal == SIGINT ? 0 : 128 + signal
            }
            // Short waits while something animates or loads, so results and frames show promptly.
            let busy = state.isAnimating || !state.requests.isEmpty
            var actions: [Action] = []
            if let event = terminal.nextEvent(timeoutMilliseconds: busy ? 30 : 250) { actions.append(.event(event)) }
            actions += mailbox.drain()
            actions += notices.drain().map { .notice($0) }
            actions.append(.tick(now()))
            for action in actions { effects += App.update(&state, action) }
        }
    }

    /// A page on disk is shown on the spot, so the first frame already has it: no hop through the
    /// source's executor and the mailbox. The load still runs, and if the cache finds the page stale
    /// its revalidated (or refetched) copy replaces this one when it arrives.
    private func answerFromDisk(_ effect: Effect) -> Action? {
        guard case .load(let page, .returnCacheElseLoad) = effect, let cached = pages.peekCachedPage(page) else { return nil }
        return .pageLoaded(cached)
    }

    /// Runs an effect. Reloads run one after another in the order asked (`R` reloads pages 1...N,
    /// and a cursor feed's page N needs page N-1's fresh answer first).
    private func perform(_ effect: Effect, mailbox: Mailbox, state: inout AppState, reloads: inout Task<Void, Never>?) {
        switch effect {
        case .load(let page, let policy):
            let previous = policy == .reloadIgnoringCache ? reloads : nil
            let task = Task { [pages] in
                await previous?.value
                do throws(RiffleError) {
                    mailbox.post(.pageLoaded(try await pages.load(page, policy: policy)))
                } catch {
                    mailbox.post(.pageFailed(page: page, error: error))
                }
            }
            if policy == .reloadIgnoringCache { reloads = task }
        case .open(let url):
            if let failure = open(url) { mailbox.post(.notice(failure)) }
        case .quit:
            state.shouldQuit = true
        }
    }
}
