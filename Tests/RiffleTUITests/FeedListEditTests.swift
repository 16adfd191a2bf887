import Foundation
import RiffleKit
import Testing
@testable import RiffleTUI

/// Renaming (`e`) and removing (`d`) feeds in the feed list: the user's feeds and the ones opened
/// before; presets and the demo are built in.
@Suite("feed list: rename and remove")
struct FeedListEditTests {
    static let mine = FeedEntry(name: "rust", description: "r/rust", origin: .feedsFile)
    static let opened = FeedEntry(name: "reddit:swift", description: "opened before", origin: .recent)
    static let preset = FeedEntry(name: "hn", description: "Hacker News", origin: .preset)

    static func state() -> AppState {
        var state = AppState.feedList(size: Size(width: 80, height: 8), now: Fixture.now)
        state.send(.start)
        state.send(.feedsListed([mine, opened, preset]))
        return state
    }

    @Test func eRenamesAFeedOfTheFileStartingFromItsName() {
        var state = Self.state()
        #expect(state.press("e") == [])
        #expect(App.view(state).trimmedLines[7] == " rename rust to: rust")
        for _ in 0..<4 { state.press(.backspace) }
        for character in "ferris" { state.press(.character(character)) }
        #expect(App.view(state).trimmedLines[7] == " rename rust to: ferris")
        #expect(state.press(.enter) == [.renameFeed(Self.mine, to: "ferris")])
        // The answer says so and lists the feeds again
        #expect(state.send(.feedsChanged("renamed 'rust' to 'ferris' in feeds.json")) == [.listFeeds])
        #expect(state.toasts.last?.message == "renamed 'rust' to 'ferris' in feeds.json")
    }

    @Test func eOnAFeedOpenedBeforeGivesItAName() {
        var state = Self.state()
        state.press("j")
        state.press("e")
        #expect(App.view(state).trimmedLines[7] == " rename reddit:swift to:")
        for character in "swift" { state.press(.character(character)) }
        #expect(state.press(.enter) == [.renameFeed(Self.opened, to: "swift")])
        // Esc drops it
        state.press("e")
        #expect(state.press(.escape) == [] && state.screens.overlay == nil)
    }

    @Test func dAsksFirstAndOnlyYRemoves() {
        var state = Self.state()
        #expect(state.press("d") == [])
        #expect(App.view(state).trimmedLines[7] == " remove rust from feeds.json? y/n")
        #expect(state.press("n") == [] && state.screens.overlay == nil)
        #expect(state.toasts.last?.message == "kept rust")
        state.press("d")
        #expect(state.press("y") == [.removeFeed(Self.mine)])
        // One opened before is forgotten
        state.press("j")
        state.press("d")
        #expect(App.view(state).trimmedLines[7] == " forget reddit:swift (opened before)? y/n")
        #expect(state.press("y") == [.removeFeed(Self.opened)])
    }

    @Test func presetsAreBuiltIn() {
        var state = Self.state()
        state.press("j"); state.press("j")
        #expect(state.press("e") == [] && state.press("d") == [])
        #expect(state.screens.overlay == nil)
        #expect(state.toasts.map(\.message).suffix(2) == ["hn is built in: it cannot be renamed", "hn is built in: it cannot be removed"])
    }

    @Test func theHeaderNamesTheKeys() {
        #expect(App.view(Self.state()).trimmedLines[0].contains("e rename · d remove"))
    }
}
