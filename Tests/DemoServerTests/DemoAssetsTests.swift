import Foundation
import RiffleAssets
import Testing
@testable import DemoServer

@Suite("Assets compiled into the binary")
struct DemoAssetsTests {
    /// The checkout's `Assets/` folder, the source the build embeds.
    static let assetsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appending(path: "Assets")

    /// Every data file under `Assets/`, as `folder/name.json`.
    static func sourceFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: assetsFolder.path).sorted().flatMap { folder -> [String] in
            var isFolder: ObjCBool = false
            let path = assetsFolder.appending(path: folder).path
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue else { return [] }
            return try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".json") }.sorted().map { "\(folder)/\($0)" }
        }
    }

    @Test func everyFileUnderAssetsIsEmbeddedByteForByte() throws {
        let files = try Self.sourceFiles()
        #expect(files.contains("demo/items.json") && files.contains("presets/presets.json") && files.contains("themes/dark.json"))
        for file in files {
            let source = try Data(contentsOf: Self.assetsFolder.appending(path: file))
            #expect(RiffleAssets.data(file) == source, "\(file) differs from its embedded copy")
        }
        #expect(RiffleAssets.data("themes/none.json") == nil)
        #expect(RiffleAssets.names(in: "themes") == ["dark", "light", "mono"])
    }

    @Test func theDemoFeedComesFromTheBinary() throws {
        let feed = try DemoFeed.load()
        #expect(feed.items.count == 720)
    }

    @Test func aDemoFeedThatDoesNotDecodeIsOneLineNamingIt() {
        #expect(throws: DemoServerError.self) { try DemoFeed.decode(Data("{\"items\": [{}]}".utf8), path: "Assets/demo/items.json") }
        do {
            _ = try DemoFeed.decode(Data("{\"items\": [{}]}".utf8), path: "Assets/demo/items.json")
        } catch {
            #expect(!error.description.contains("\n"))
            #expect(error.description.hasPrefix("demo feed Assets/demo/items.json is unreadable: "))
        }
    }
}
