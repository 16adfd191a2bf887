import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

/// A server may send a title of megabytes. Only what fits on the row is sanitised and measured
/// (`riffle-bench draw` times it); these say what is drawn.
@Suite("a title of megabytes is drawn as what fits")
struct LongTextTests {
    @Test func aHugeTitleIsCutAtTheRowWithAnEllipsis() {
        // Given an item whose title is 5 MB of CJK with an escape sequence far past the edge
        let title = String(repeating: "漢字", count: 1 << 20) + "\u{1B}[2J"
        let item = Fixture.item(title)
        var buffer = Buffer(size: Size(width: 20, height: 1))
        // When the list draws it
        ListView(items: [item], selection: nil, offset: 0, now: Fixture.now).render(into: &buffer, area: buffer.area)
        // Then the row holds what fits, whole characters, and ends in "…"
        #expect(buffer.description == " 漢字漢字漢字漢字…")
    }

    @Test func zeroWidthPaddingCannotHideThatTheTitleGoesOn() {
        // Given a title that is two letters, a million zero-width joiners, then more text
        let title = "ab" + String(repeating: "\u{200B}", count: 1_000_000) + "cd"
        var buffer = Buffer(size: Size(width: 10, height: 1))
        // When written into a row wide enough for "abcd"
        let used = buffer.write(title, x: 0, y: 0)
        // Then it is cut where the scan stopped, and says so
        #expect(buffer.description == "ab…" && used == 3)
    }

    @Test func whatFitsIsDrawnAsBeforeAndControlsAreStillShownAsPictures() {
        var buffer = Buffer(size: Size(width: 12, height: 2))
        buffer.write("a\u{1B}b\u{7}c", x: 0, y: 0)
        buffer.write("exactly twelve", x: 0, y: 1)
        #expect(buffer.lines == ["a␛b␇c       ", "exactly twe…"])
    }
}
