import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("paging that reads like paging: pages at the top, boundaries, toasts clear of the selection")
struct PagingTests {
    @Test func nextBringsThePagesFirstItemToTheTopUnderItsBoundary() {
        // Given page 1 on a 40x8 screen (6 list rows)
        var state = Fixture.state()
        // When n is pressed and page 2 arrives
        state.press("n")
        state.send(.pageLoaded(Fixture.page(2)))
        // Then the list starts with page 2's boundary line, its first item selected right under it
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...6]) == [
            " ─ page 2 ─────────────────────────────",
            " p2 item 1", " p2 item 2", " p2 item 3", " p2 item 4", " p2 item 5",
        ])
        #expect(App.view(state)[1, 2].style.role == .selection)
        #expect(App.view(state)[1, 1].style.role == .dim)
    }

    @Test func previousBringsPageOneBackToTheTop() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("j"); state.press("j")
        #expect(state.press("p") == [])
        #expect(Array(App.view(state).trimmedLines[1...2]) == [" p1 item 1", " p1 item 2"])
        state.press("n")
        #expect(Array(App.view(state).trimmedLines[1...2]) == [" ─ page 2 ─────────────────────────────", " p2 item 1"])
    }

    @Test func scrollingShowsWherePagesMeet() {
        // Given pages 1 and 2, the selection moved up from page 2's first item to page 1's last
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("k")
        // Then page 1's end, the boundary and page 2's start show in order
        let lines = App.view(state).trimmedLines
        #expect(lines[1] == " p1 item 10")
        #expect(lines[2] == " ─ page 2 ─────────────────────────────")
        #expect(lines[3] == " p2 item 1")
        #expect(state.list.selection == 9 && state.list.pageNumber == 1)
    }

    @Test func aShortLastPageStillStartsAtTheTopAndMovingKeepsTheView() {
        // Given page 1, and n bringing a last page of two items
        var state = Fixture.state()
        state.press("n")
        state.send(.pageLoaded(Page(number: 2, items: Fixture.items(2, page: 2), data: Data(), source: .network,
                                    fetchedAt: Fixture.now, status: 200, isLastPage: true)))
        // Then it starts at the top, with blank lines under "end of feed"
        var lines = App.view(state).trimmedLines
        #expect(Array(lines[1...6]) == [" ─ page 2 ─────────────────────────────", " p2 item 1", " p2 item 2", " end of feed", "", ""])
        // And moving within it does not pull page 1 back into view
        state.press("j")
        lines = App.view(state).trimmedLines
        #expect(lines[1] == " ─ page 2 ─────────────────────────────" && state.list.selection == 11)
        // While moving up into page 1 scrolls as usual, filling the screen again
        state.press("k"); state.press("k")
        #expect(Array(App.view(state).trimmedLines[1...6]) == [
            " p1 item 9", " p1 item 10", " ─ page 2 ─────────────────────────────", " p2 item 1", " p2 item 2", " end of feed",
        ])
    }

    @Test func aClickOnABoundarySelectsNothingAndOnAnItemThatItem() {
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2)])
        state.press("k")
        state.send(.event(.mouseClick(x: 3, y: 2)))
        #expect(state.list.selection == 9)
        state.send(.event(.mouseClick(x: 3, y: 4)))
        #expect(state.list.selectedItem?.title == "p2 item 2")
    }

    @Test func underAFilterBoundariesSeparateThePagesThatMatch() {
        // Given three pages and a filter matching items of pages 1 and 3 only
        var state = Fixture.state(pages: [Fixture.page(1), Fixture.page(2, items: [Fixture.item("other")]), Fixture.page(3)],
                                  size: Size(width: 40, height: 10))
        state.press("/")
        for c in "item 1" { state.press(.character(c)) }
        state.press(.enter)
        state.press("g")
        // Then page 3's boundary follows page 1's matches, and page 2 has none
        #expect(Array(App.view(state).trimmedLines[1...6]) == [
            " p1 item 1", " p1 item 10", " ─ page 3 ─────────────────────────────", " p3 item 1", " p3 item 10", "",
        ])
    }

    @Test func aToastNeverCoversTheSelectedRow() {
        // Given the selection on the bottom row of the list
        var state = Fixture.state()
        for _ in 0..<5 { state.press("j") }
        #expect(App.view(state).trimmedLines[6] == " p1 item 6")
        // When a message is raised
        state.send(.notice("no browser to open links"))
        // Then the toast is drawn at the top of the list, and the selected row stays visible
        var buffer = App.view(state)
        #expect(buffer.trimmedLines[1] == " p1 item 1     no browser to open links")
        #expect(buffer[39, 1].style.role == .toast && buffer[1, 1].style.role != .toast)
        #expect(buffer.trimmedLines[6] == " p1 item 6" && buffer[1, 6].style.role == .selection && buffer[39, 6].style.role == .selection)
        // And with the selection at the top, toasts go to the bottom corner
        state.press("g")
        buffer = App.view(state)
        #expect(buffer.trimmedLines[1] == " p1 item 1" && buffer.trimmedLines[6] == " p1 item 6     no browser to open links")
    }

    @Test func toastsThatFitNeitherSideTakeTheRoomierOneNewestFirst() {
        // Given three toasts and the selection on the 3rd of 6 list rows (2 rows above, 3 below)
        var state = Fixture.state()
        state.press("j"); state.press("j")
        for message in ["one", "two", "three"] { state.send(.notice(message)) }
        // Then all three go below; on the 4th row (3 above, 2 below) they go above
        #expect(Array(App.view(state).trimmedLines[4...6]).map { $0.split(separator: " ").last } == ["one", "two", "three"])
        state.press("j")
        let lines = App.view(state).trimmedLines
        #expect(Array(lines[1...3]).map { $0.split(separator: " ").last } == ["one", "two", "three"] && lines[4] == " p1 item 4")
        // And on a 5-row screen (3 list rows, the selection in the middle), the newest one shows
        state.send(.event(.resize(Size(width: 40, height: 5))))
        let small = App.view(state).trimmedLines
        #expect(small.contains { $0.hasSuffix(" three") } && !small.contains { $0.hasSuffix(" one") })
        #expect(small.contains(" p1 item 4"))
    }

    @Test func countsOfOneAreSingularAsTheFeedsItemsSayThem() throws {
        // Given items as RiffleKit reads them from a page (the list adds nothing to their counts)
        let page = Data((#"[{"title": "a", "by": "ann", "score": 1, "descendants": 1}, {"title": "b", "by": "bo", "points": 11, "num_comments": 21},"#
            + #" {"title": "c", "stargazers_count": 1, "replies_count": 1}]"#).utf8)
        let items = try ItemExtractor.items(in: page)
        // Then a count of one is singular and any other plural
        #expect(items.map { ListView.details(of: $0, now: Fixture.now) } == ["ann · 1 point · 1 comment", "bo · 11 points · 21 comments",
                                                                             "1 star · 1 reply"])
    }
}
