import CNcursesw
import Testing
@testable import NcursesTerminal
@testable import RiffleTUI

@Suite("glyphs: what ncurses holds and what is written around it")
struct GlyphTests {
    static func scalars(_ text: String) -> [wchar_t] { text.unicodeScalars.map { wchar_t(bitPattern: $0.value) } }

    static func glyph(_ symbol: String, width: Int = 2, x: Int = 0, rowWidth: Int = 80, direct: Bool = true) -> Glyph {
        TextWidth.prepare()
        return Glyph.forCell(symbol, width: width, x: x, rowWidth: rowWidth, canWriteDirectly: direct)
    }

    @Test func ncursesHoldsWhatItMeasuresAsTheBufferDoes() {
        #expect(Self.glyph("a", width: 1) == .cell(Self.scalars("a")))
        #expect(Self.glyph("e\u{301}", width: 1) == .cell(Self.scalars("e\u{301}")), "base and mark in one cchar_t")
        #expect(Self.glyph("漢") == .cell(Self.scalars("漢")))
        #expect(Self.glyph("\u{1100}\u{1161}\u{11A8}") == .cell(Self.scalars("\u{1100}\u{1161}\u{11A8}")), "Hangul jamo join")
    }

    @Test(arguments: [
        ("🇺🇦", 2),         // two regional indicators, each one column to wcwidth
        ("👨‍👩‍👧‍👦", 8),   // seven code points, more than CCHARW_MAX
        ("👍🏽", 4),         // the skin tone has a width of its own
        ("❤️", 2),          // wcwidth says 1, U+FE0F makes it 2
        ("1️⃣", 2),
        ("👩🏽‍💻", 6),
    ] as [(String, Int)])
    func clustersSetccharWouldCutAreWrittenWhole(symbol: String, reach: Int) {
        #expect(Self.glyph(symbol) == .direct(symbol, width: 2, reach: reach))
    }

    @Test func nearTheRightEdgeACutClusterKeepsItsFirstCharacter() {
        // A family at column 75 of 80 could be drawn 8 wide by a terminal that does not join it: never
        // written directly there, so nothing wraps; ncurses draws the man, without the joiner after him.
        #expect(Self.glyph("👨‍👩‍👧‍👦", x: 75) == .cell(Self.scalars("👨")))
        #expect(Self.glyph("👨‍👩‍👧‍👦", x: 72) == .direct("👨‍👩‍👧‍👦", width: 2, reach: 8))
        // A flag's first character is one column: a wide blank keeps the columns after it in place.
        #expect(Self.glyph("🇺🇦", direct: false) == .cell([0x3000]))
    }

    @Test func aDanglingJoinerIsDropped() {
        #expect(Self.glyph("👨\u{200D}") == .cell(Self.scalars("👨")))
    }

    @Test func stackedMarksAreCappedNotWrittenWhole() {
        let zalgo = "a" + String(repeating: "\u{301}", count: 40)
        #expect(Self.glyph(zalgo, width: 1) == .cell(Self.scalars("a\u{301}\u{301}\u{301}\u{301}")))
    }

    @Test func directWritesPutBackTheCellsAWiderDrawingCovers() {
        // Given a row "A👍🏽BC|🇺🇦" and one of plain text
        var buffer = Buffer(size: Size(width: 12, height: 3))
        buffer.write("A👍🏽BC|🇺🇦x", x: 0, y: 0)
        buffer.write("plain", x: 0, y: 1)
        // When the rows are drawn
        let writes = Glyph.directWrites(in: buffer, rows: [0, 1], canWriteDirectly: true)
        // Then the thumb is written whole, then B and C (which a 4-column thumb covers), then the flag
        #expect(writes == [
            .init(x: 1, y: 0, text: "👍🏽"), .init(x: 3, y: 0, text: "B"), .init(x: 4, y: 0, text: "C"),
            .init(x: 6, y: 0, text: "🇺🇦"),
        ])
        // And a terminal without cursor addressing gets nothing outside ncurses
        #expect(Glyph.directWrites(in: buffer, rows: [0, 1], canWriteDirectly: false).isEmpty)
    }

    @Test func theBottomRightCellIsNeverWrittenDirectly() {
        var buffer = Buffer(size: Size(width: 4, height: 2))
        buffer.write("ab🇺🇦", x: 0, y: 0)
        buffer.write("ab🇺🇦", x: 0, y: 1)
        #expect(Glyph.directWrites(in: buffer, rows: [0, 1], canWriteDirectly: true) == [.init(x: 2, y: 0, text: "🇺🇦")])
    }
}
