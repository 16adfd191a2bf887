import Foundation
import Testing
@testable import RiffleKit

/// What a value looks like, on the edges of the window the API marks are searched in.
@Suite struct ValueShapeTests {
    static func shape(_ text: String) -> ValueShape {
        var text = text
        return text.withUTF8 { ValueShape.of($0, host: nil).shape }
    }

    /// Links of 130 to 140 bytes ending in `/api` or `.json`: the mark begins inside the 128 bytes
    /// searched and the value ends just past them. The check of what follows the mark read one byte
    /// past the value's end there (a crash with bounds checks, garbage without); now the value's
    /// end is the mark's end, and the link reads as an API's.
    @Test(arguments: 130...140)
    func aMarkAtTheValuesEndJustPastTheWindowReadsAsAnAPI(length: Int) {
        for mark in ["/api", ".json"] {
            let head = "https://example.com/"
            let link = head + String(repeating: "a", count: length - head.utf8.count - mark.utf8.count) + mark
            #expect(link.utf8.count == length)
            let markStart = length - mark.utf8.count + (mark == "/api" ? 1 : 0)
            // Marks that begin inside the window are seen; one that begins past it is not looked for.
            #expect(Self.shape(link).contains(.api) == (markStart < "https://".utf8.count + 128 + (mark == "/api" ? 1 : 0)), "\(length) \(mark)")
            #expect(Self.shape(link).contains(.url))
        }
    }

    @Test func aMarkFollowedByMoreIsNotTheEnd() {
        #expect(Self.shape("https://example.com/apiary/x").contains(.api) == false)
        #expect(Self.shape("https://example.com/api/x").contains(.api))
        #expect(Self.shape("https://example.com/feed.jsonl").contains(.api) == false)
        #expect(Self.shape("https://example.com/feed.json?x=1").contains(.api))
    }
}
