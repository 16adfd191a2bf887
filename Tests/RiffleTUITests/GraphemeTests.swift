import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

@Suite("whole graphemes: every code point of a cluster, at its display width")
struct GraphemeTests {
    static let flags = "🇺🇦🇪🇺"
    static let family = "👨‍👩‍👧‍👦"
    static let thumb = "👍🏽"
    static let acute = "e\u{301}"

    @Test(arguments: [
        ("🇺🇦", 2), ("🇪🇺", 2), (family, 2), (thumb, 2), (acute, 1), ("漢", 2), ("한", 2),
        ("❤️", 2), ("1️⃣", 2), ("🏳️‍🌈", 2), ("👩🏽‍💻", 2), ("a", 1), ("\u{1100}\u{1161}\u{11A8}", 2),
    ] as [(String, Int)])
    func aClusterHasOneWidth(text: String, columns: Int) {
        #expect(text.count == 1, "one extended grapheme cluster")
        #expect(TextWidth.width(of: Character(text)) == columns)
    }

    @Test func twoFlagsAreTwoClustersOfTwoColumns() {
        #expect(Array(Self.flags).map(String.init) == ["🇺🇦", "🇪🇺"])
        #expect(TextWidth.width(of: Self.flags) == 4)
    }

    @Test func aCellHoldsTheWholeClusterAndItsWidth() {
        // Given a row with two flags, a family, a skin tone and a combining accent
        var buffer = Buffer(size: Size(width: 20, height: 1))
        // When written
        let used = buffer.write("A\(Self.flags)\(Self.family)\(Self.thumb)\(Self.acute)B", x: 0, y: 0)
        // Then each cluster sits whole in one cell, followed by a continuation when it is two wide
        #expect(used == 1 + 4 + 2 + 2 + 1 + 1)
        let symbols = (0..<used).map { buffer[$0, 0].isContinuation ? "_" : buffer[$0, 0].symbol }
        #expect(symbols == ["A", "🇺🇦", "_", "🇪🇺", "_", Self.family, "_", Self.thumb, "_", Self.acute, "B"])
        #expect(buffer[5, 0].symbol.unicodeScalars.count == 7, "the family keeps all seven code points")
        #expect(buffer.description == "A\(Self.flags)\(Self.family)\(Self.thumb)\(Self.acute)B")
    }

    @Test func aFlagIsNeverSplitAtTheEdge() {
        // Given five columns and a text that would put the second flag across the edge
        var buffer = Buffer(size: Size(width: 5, height: 1))
        buffer.write("ab\(Self.flags)", x: 0, y: 0)
        // Then it ends in "…" after the first flag, and no cell holds half a flag
        #expect(buffer.description == "ab🇺🇦…")
        #expect(buffer.cells.allSatisfy { $0.symbol.unicodeScalars.count != 1 || !TextWidth.isRegionalIndicator($0.symbol.unicodeScalars.first!) })
    }

    static let titles = ["\(flags) flags", "\(family) family", "\(thumb) thumb", "caf\(acute) acute", "漢字 cjk"]

    @Test func theListDrawsClustersWholeAndKeepsColumns() {
        // Given items whose titles start with clusters, and details after them
        let state = Fixture.state(showing: Fixture.page(1, items: Self.titles.map { Fixture.item($0, details: ["ann"]) }))
        // When drawn
        let buffer = App.view(state)
        // Then every title is whole, and the details start where the widths say
        #expect(Array(buffer.trimmedLines[1...5]) == [
            " \(Self.flags) flags  ann",
            " \(Self.family) family  ann",
            " \(Self.thumb) thumb  ann",
            " caf\(Self.acute) acute  ann",
            " 漢字 cjk  ann",
        ])
        #expect(buffer[1, 1].symbol == "🇺🇦" && buffer[3, 1].symbol == "🇪🇺")
        #expect(buffer[13, 1].symbol == "a", "1 + 4 + 1 + 5 + 2 columns before the details")
        #expect(buffer[12, 2].symbol == "a", "1 + 2 + 1 + 6 + 2")
        #expect(buffer[13, 4].symbol == "a", "1 + 4 + 1 + 5 + 2: the accent takes no column of its own")
    }

    @Test func theDetailWrapsByClusterWidth() throws {
        // Given an item whose text is twelve flags, on a screen 20 columns wide
        let text = String(repeating: "🇺🇦", count: 12)
        let fields = try JSONParser.parse(Data(#"{"t": "\#(text)"}"#.utf8))
        var state = Fixture.state(showing: Fixture.page(1, items: [Fixture.item("x", fields: fields)]),
                                  size: Size(width: 20, height: 8))
        // When its fields are shown
        state.press(.enter)
        state.press("v")
        let lines = App.view(state).trimmedLines
        // Then lines break between flags, never inside one: "t: " and seven flags fit 18 columns
        #expect(lines[1] == " t: " + String(repeating: "🇺🇦", count: 7))
        #expect(lines[2] == "   " + String(repeating: "🇺🇦", count: 5))
    }

    @Test func theFilterTakesAFlagTypedAsTwoCodePoints() {
        // Given the list, and a flag typed: a terminal sends it as two regional indicators
        var state = Fixture.state(showing: Fixture.page(1, items: Self.titles.map { Fixture.item($0) }))
        state.press("/")
        state.press(.character("🇪"))
        state.press(.character("🇺"))
        // Then the query is one flag, it matches, and the bar draws it two columns wide
        #expect(state.list.filter?.query == "🇪🇺")
        #expect(state.list.rows.count == 1)
        let buffer = App.view(state)
        #expect(buffer[2, 7].symbol == "🇪🇺" && buffer[3, 7].isContinuation)
        // And one backspace removes the whole flag
        state.press(.backspace)
        #expect(state.list.filter?.query == "")
    }
}
