import Foundation
import NcursesTerminal
import RiffleKit
import RiffleTUI
import Synchronization

/// The run loop: one thread owns the screen and the state; effects run as tasks and post their
/// results to a mailbox that the loop drains between key presses (bubbletea's Cmd → Msg).
struct BrowserLoop {
    let screen: NcursesScreen
    let loader: PageLoader
    let title: String
    /// `--max-age`: stored pages older than this are fetched again.
    var maxAge: Int?

    /// Results of finished effects, waiting for the loop.
    final class Mailbox: Sendable {
        private let actions = Mutex<[Action]>([])
        func post(_ action: Action) { actions.withLock { $0.append(action) } }
        func drain() -> [Action] { actions.withLock { queue in defer { queue.removeAll() }; return queue } }
    }

    /// Runs until the user quits or a signal arrives; returns the exit status.
    func run() -> Int32 {
        let mailbox = Mailbox()
        var reloads: Task<Void, Never>?
        var state = AppState(feedTitle: title, size: screen.size, now: Date())
        var effects = App.update(&state, .start)
        while true {
            while !effects.isEmpty {
                let now = effects
                effects = []
                for effect in now {
                    if let answered = answerFromDisk(effect) { effects += App.update(&state, answered) }
                    perform(effect, mailbox: mailbox, state: &state, reloads: &reloads)
                }
            }
            if state.shouldQuit { return 0 }
            screen.draw(App.view(state))
            if let signal = screen.takeQuitSignal() {
                // Ctrl-C and friends end the program cleanly; 128+n is the shell's convention.
                return signal == SIGINT ? 0 : 128 + signal
            }
            // Short waits while something animates or loads, so results and frames show promptly.
            let busy = state.isAnimating || !state.requests.isEmpty
            var actions: [Action] = []
            if let event = screen.nextEvent(timeoutMilliseconds: busy ? 30 : 250) { actions.append(.event(event)) }
            actions += mailbox.drain()
            actions.append(.tick(Date()))
            for action in actions { effects += App.update(&state, action) }
        }
    }

    /// A page on disk is shown on the spot, so the first frame already has it: no hop through the
    /// actor and the mailbox. The load still runs, and if the page is stale (by the cache's rules or
    /// `--max-age`) its revalidated (or refetched) copy replaces this one when it arrives.
    private func answerFromDisk(_ effect: Effect) -> Action? {
        guard case .load(let page, .returnCacheElseLoad) = effect, let cached = loader.peekCachedPage(page) else { return nil }
        return .pageLoaded(cached)
    }

    /// Runs an effect; reloads run one after another in the order asked (`R` reloads pages 1...N,
    /// and a cursor feed's page N needs page N-1's fresh answer first).
    private func perform(_ effect: Effect, mailbox: Mailbox, state: inout AppState, reloads: inout Task<Void, Never>?) {
        switch effect {
        case .load(let page, let policy):
            let previous = policy == .reloadIgnoringCache ? reloads : nil
            let task = Task { [loader, maxAge] in
                await previous?.value
                do throws(RiffleError) {
                    mailbox.post(.pageLoaded(try await MaxAge.load(page, policy: policy, maxAge: maxAge, loader: loader)))
                } catch {
                    mailbox.post(.pageFailed(page: page, error: error))
                }
            }
            if policy == .reloadIgnoringCache { reloads = task }
        case .open(let url):
            // A terminal browser gets the terminal: the screen is suspended while it runs.
            if let failure = LinkOpener.open(url, suspend: { [screen] body in screen.suspended(body) }) {
                mailbox.post(.notice(failure.description))
            }
        case .quit:
            state.shouldQuit = true
        }
    }
}
