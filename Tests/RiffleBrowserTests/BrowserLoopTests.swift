import Foundation
import RiffleKit
import Testing
@testable import RiffleBrowser
import RiffleTUI

@Suite("the run loop, with an in-memory terminal and a page source the test answers")
struct BrowserLoopTests {
    static let cached = LoopFixture.page(1, titles: ["cached one", "cached two"], source: .cache, fetchedAgo: 600)
    static let fresh = LoopFixture.page(1, titles: ["fresh one", "fresh two", "fresh three"], source: .revalidated, fetchedAgo: 0)

    @Test func theFirstFrameComesFromTheCacheThenTheRevalidatedPageReplacesIt() async {
        // Given page 1 on disk, and a source whose load waits for the test
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource(stored: [1: Self.cached]))
        defer { run.pages.failEverythingWaiting() }
        // When the loop starts, then the very first frame already lists the cached titles
        #expect(await run.frame { _ in true } != nil)
        let first = run.terminal.frames.first?.description ?? ""
        #expect(first.contains("cached one") && first.contains("cache · fetched 10m ago"), "\(first)")
        // And the page is still asked of the source, which may revalidate it
        #expect(await run.calls(1) == [.init(page: 1, policy: .returnCacheElseLoad)])
        // When the revalidated copy arrives, it replaces the cached one on screen
        run.pages.answer(1, with: .success(Self.fresh))
        let updated = await run.frame { $0.description.contains("fresh three") }
        #expect(updated?.description.contains("network") == true, "\(run.terminal.lastFrame?.description ?? "")")
        #expect(updated?.description.contains("cached") == false)
        // When q is pressed, the loop ends with 0 and the terminal is restored
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
        #expect(run.terminal.isRestored)
    }

    @Test func aNoticeFromElsewhereShowsAsAToastWhileThePageLoads() async {
        // Given a page that is still loading
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource())
        defer { run.pages.failEverythingWaiting() }
        _ = await run.calls(1)
        // When the client says it will retry (as riffle's RetryNotice plugin does)
        run.notices.post("retrying in 4 s (HTTP 429 Too Many Requests)")
        // Then the next frames say so, over the list
        #expect(await run.frame { $0.description.contains("retrying in 4 s (HTTP 429") } != nil,
                "\(run.terminal.lastFrame?.description ?? "")")
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
    }

    @Test func withNothingStoredTheFirstFrameSaysLoading() async {
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource())
        defer { run.pages.failEverythingWaiting() }
        #expect(await run.frame { $0.description.contains("loading…") } != nil)
        #expect(await run.calls(1) == [.init(page: 1, policy: .returnCacheElseLoad)])
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
    }

    @Test func aSecondReloadWhileOneIsInFlightAsksForNothing() async {
        // Given page 1 on screen
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource(stored: [1: Self.cached]))
        defer { run.pages.failEverythingWaiting() }
        _ = await run.calls(1)
        // When r is pressed twice before the reload answers
        run.terminal.send(.key(.character("r")))
        run.terminal.send(.key(.character("r")))
        // Then one reload is asked for. (A short window: it can only let a broken loop pass, never
        // fail a correct one.)
        #expect(await run.calls(2) == [.init(page: 1, policy: .returnCacheElseLoad), .init(page: 1, policy: .reloadIgnoringCache)])
        #expect(await run.calls(3, timeout: 0.5).count == 2)
        // And its answer is shown
        run.pages.answer(1, with: .success(Self.fresh))  // the first load's
        run.pages.answer(1, with: .success(LoopFixture.page(1, titles: ["reloaded"], source: .network)))
        #expect(await run.frame { $0.description.contains("reloaded") } != nil)
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
    }

    @Test func reloadsOfSeveralPagesRunOneAfterAnother() async {
        // Given pages 1 and 2 on disk, both shown, and every load so far answered
        let page2 = LoopFixture.page(2, titles: ["two a", "two b"], source: .cache)
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource(stored: [1: Self.cached, 2: page2]))
        defer { run.pages.failEverythingWaiting() }
        run.terminal.send(.key(.character("n")))
        #expect(await run.frame { $0.description.contains("two a") } != nil)
        let reload1 = MockPageSource.Call(page: 1, policy: .reloadIgnoringCache)
        let reload2 = MockPageSource.Call(page: 2, policy: .reloadIgnoringCache)
        // When R reloads every page
        run.terminal.send(.key(.character("R")))
        // Then page 1 is asked for, and page 2 waits for page 1's answer (a short window, as above)
        #expect(await run.calls { $0.contains(reload1) }.contains(reload1))
        #expect(await run.calls(timeout: 0.5) { $0.contains(reload2) }.contains(reload2) == false,
                "page 2 asked for while page 1 is in flight")
        run.pages.answer(1, with: .success(Self.fresh))  // the first load's
        run.pages.answer(1, with: .success(Self.fresh))  // the reload's
        #expect(await run.calls { $0.contains(reload2) }.contains(reload2))
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
    }

    @Test func aResizeWhileLoadingRedrawsAtTheNewSizeAndThePageArrivesThere() async {
        // Given nothing stored and page 1 in flight
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource())
        defer { run.pages.failEverythingWaiting() }
        _ = await run.calls(1)
        // When the terminal is resized
        let resized = Size(width: 60, height: 12)
        run.terminal.send(.resize(resized))
        // Then the next frame has the new size, still loading
        let loading = await run.frame { $0.size == resized }
        #expect(loading?.description.contains("loading…") == true)
        // When the page arrives, it is drawn at that size with the status bar on the last row
        run.pages.answer(1, with: .success(Self.fresh))
        let shown = await run.frame { $0.size == resized && $0.description.contains("fresh one") }
        #expect(shown?.lines[11].contains("item 1/3 · page 1") == true, "\(shown?.description ?? "none")")
        run.terminal.send(.key(.character("q")))
        #expect(await run.exitStatus() == 0)
    }

    @Test(arguments: [(SIGTERM, 128 + SIGTERM), (SIGHUP, 128 + SIGHUP), (SIGINT, 0)] as [(Int32, Int32)])
    func aSignalEndsTheLoopAndRestoresTheTerminal(signal: Int32, status: Int32) async {
        let run = LoopRun(terminal: InMemoryTerminal(size: LoopFixture.size), pages: MockPageSource(stored: [1: Self.cached]))
        defer { run.pages.failEverythingWaiting() }
        #expect(await run.frame { $0.description.contains("cached one") } != nil)
        run.terminal.sendQuitSignal(signal)
        #expect(await run.exitStatus() == status)
        #expect(run.terminal.isRestored)
    }
}
