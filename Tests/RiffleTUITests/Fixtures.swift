import Foundation
import RiffleKit
@testable import RiffleTUI

/// Shared test data: a fixed clock, items and pages. Time only ever comes in as `now`.
enum Fixture {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)
    static let size = Size(width: 40, height: 8)

    static func item(_ title: String, details: [String] = [], url: String? = nil, age: TimeInterval? = nil,
                     fields: JSONValue = .object(JSONObject())) -> Item {
        Item(id: title, title: title, details: details, url: url,
             createdAt: age.map { now.addingTimeInterval(-$0) }, fields: fields)
    }

    static func items(_ count: Int, page: Int = 1) -> [Item] {
        (0..<count).map { item("p\(page) item \($0 + 1)") }
    }

    static func page(_ number: Int, items: [Item]? = nil, source: Page.Source = .network,
                     fetchedAgo: TimeInterval = 180) -> Page {
        Page(number: number, items: items ?? Self.items(10, page: number), data: Data(), source: source,
             fetchedAt: now.addingTimeInterval(-fetchedAgo), status: 200)
    }

    /// A browser showing `page` and nothing in flight, as after `.start` and its answer.
    static func state(showing page: Page = page(1), size: Size = size) -> AppState {
        state(pages: [page], size: size)
    }

    /// A browser that loaded `pages` (numbered 1, 2, ...) with `n`, selection on the last one's first item.
    static func state(pages: [Page], size: Size = size) -> AppState {
        var state = AppState(feedTitle: "demo feed", size: size, now: now)
        _ = App.update(&state, .start)
        for (i, page) in pages.enumerated() {
            if i > 0 { _ = App.update(&state, .event(.key(.character("n")))) }
            _ = App.update(&state, .pageLoaded(page))
        }
        return state
    }
}

extension AppState {
    /// Sends a key and returns the effects.
    @discardableResult
    mutating func press(_ key: Key) -> [Effect] { App.update(&self, .event(.key(key))) }

    @discardableResult
    mutating func press(_ character: Character) -> [Effect] { press(.character(character)) }

    @discardableResult
    mutating func send(_ action: Action) -> [Effect] { App.update(&self, action) }
}

extension Buffer {
    /// The rows with trailing spaces removed.
    var trimmedLines: [String] { description.components(separatedBy: "\n") }
}
