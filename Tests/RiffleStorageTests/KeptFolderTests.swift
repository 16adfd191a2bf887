import Foundation
import Testing
@testable import RiffleStorage

/// A `CacheFolder` keeps open the folders it read from, so the next read opens only its file. What
/// another process does to those folders meanwhile must not change what a read finds.
@Suite("CacheFolder's kept folders: what another process changed is seen")
struct KeptFolderTests {
    let folder = try! SQLiteFileTests.Folder()
    var root: URL { folder.url }

    func write(_ text: String, to relative: String) throws {
        let url = root.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func text(_ read: CacheFolder.Read) -> String? {
        if case .data(let data, _) = read { String(decoding: data, as: UTF8.self) } else { nil }
    }

    @Test func aFolderRemovedAndMadeAgainIsReadWhereItIsNow() throws {
        // Given a page read once, which keeps its folder open
        let cache = CacheFolder(root: root)
        try write("first", to: "feeds/abc/feed_1.json")
        #expect(text(cache.read(["feeds", "abc"], "feed_1.json", size: 5, fileID: nil)) == "first")
        // When another process clears the cache (the folder goes) and stores the page again
        try FileManager.default.removeItem(at: root.appendingPathComponent("feeds/abc"))
        try write("second!", to: "feeds/abc/feed_1.json")
        // Then the page is found, with the new bytes: the removed folder did not hide it
        #expect(text(cache.read(["feeds", "abc"], "feed_1.json", size: 7, fileID: nil)) == "second!")
        #expect(cache.holds(["feeds", "abc"], "feed_1.json"))
    }

    @Test func aFileStoredAfterAMissIsFound() throws {
        // Given a folder kept after a page was not found in it
        let cache = CacheFolder(root: root)
        try write("one", to: "feeds/abc/feed_1.json")
        #expect(cache.holds(["feeds", "abc"], "feed_1.json"))
        #expect(!cache.holds(["feeds", "abc"], "feed_2.json"))
        // When the folder is made again with page 2 in it
        try FileManager.default.removeItem(at: root.appendingPathComponent("feeds/abc"))
        try write("two", to: "feeds/abc/feed_2.json")
        // Then page 2 is there and page 1 is not
        #expect(cache.holds(["feeds", "abc"], "feed_2.json"))
        #expect(!cache.holds(["feeds", "abc"], "feed_1.json"))
        if case .missing = cache.read(["feeds", "abc"], "feed_1.json", size: 3, fileID: nil) {} else { Issue.record("page 1 was read") }
    }

    @Test func aKeptFolderReplacedByALinkIsNotFollowed() throws {
        // Given a page read once, and a folder elsewhere holding a file of the same name and size
        let cache = CacheFolder(root: root)
        try write("mine", to: "feeds/abc/feed_1.json")
        #expect(text(cache.read(["feeds", "abc"], "feed_1.json", size: 4, fileID: nil)) == "mine")
        try write("evil", to: "elsewhere/feed_1.json")
        // When the feed's folder is replaced by a link to it
        try FileManager.default.removeItem(at: root.appendingPathComponent("feeds/abc"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("feeds/abc"),
                                                   withDestinationURL: root.appendingPathComponent("elsewhere"))
        // Then nothing is read through the link: the folder is not one
        let read = cache.read(["feeds", "abc"], "feed_1.json", size: 4, fileID: nil)
        if case .damaged(let why) = read { #expect(why.hasSuffix("feeds/abc: not a folder"), "\(why)") } else { Issue.record("\(read)") }
        #expect(!cache.holds(["feeds", "abc"], "feed_1.json"))
    }

    @Test func aLinkInPlaceOfAPageIsThereButNeverRead() throws {
        let cache = CacheFolder(root: root)
        try write("evil", to: "elsewhere/target.json")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("feeds/abc"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("feeds/abc/feed_1.json"),
                                                   withDestinationURL: root.appendingPathComponent("elsewhere/target.json"))
        #expect(cache.holds(["feeds", "abc"], "feed_1.json"))
        let read = cache.read(["feeds", "abc"], "feed_1.json", size: 4, fileID: nil)
        if case .damaged(let why) = read { #expect(why.contains("symbolic link"), "\(why)") } else { Issue.record("\(read)") }
    }

    @Test func aReadOfAReplacedFileSeesTheNewOne() throws {
        // Given a page read once (its inode known), then replaced by a new file renamed over it
        let cache = CacheFolder(root: root)
        try write("old", to: "feeds/abc/feed_1.json")
        guard case .data(_, let first) = cache.read(["feeds", "abc"], "feed_1.json", size: 3, fileID: nil) else {
            Issue.record("not read")
            return
        }
        try write("newer", to: "feeds/abc/feed_1.json.tmp")
        #expect(rename(root.appendingPathComponent("feeds/abc/feed_1.json.tmp").path, root.appendingPathComponent("feeds/abc/feed_1.json").path) == 0)
        // Then a read expecting the old file finds another, and one expecting the new file reads it
        if case .damaged = cache.read(["feeds", "abc"], "feed_1.json", size: 3, fileID: first) {} else { Issue.record("the old file was read") }
        #expect(text(cache.read(["feeds", "abc"], "feed_1.json", size: 5, fileID: nil)) == "newer")
    }
}
