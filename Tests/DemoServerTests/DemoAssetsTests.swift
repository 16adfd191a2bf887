import Foundation
import Testing
@testable import DemoServer

@Suite("DemoAssets")
struct DemoAssetsTests {
    @Test func testsFindTheCopyBesideTheBuiltProducts() throws {
        let folder = try DemoAssets.directory()

        #expect(folder.path.contains("/.build/"))
        #expect(folder.path.hasSuffix("Riffle_RiffleAssets.resources/demo"))
    }

    @Test func sourceTreeIsTheLastResort() {
        let candidates = DemoAssets.candidates(environment: [:])

        #expect(candidates.last?.path.hasSuffix("/Assets/demo") == true)
        #expect(FileManager.default.fileExists(atPath: candidates.last!.appending(path: "items.json").path))
    }

    @Test func environmentOverrideComesFirst() {
        let candidates = DemoAssets.candidates(environment: ["RIFFLE_ASSETS": "/opt/riffle"])

        #expect(candidates.first?.path == "/opt/riffle/demo")
    }

    @Test func missingAssetsGiveOneLineNamingEveryPlace() {
        let places = [URL(fileURLWithPath: "/nonexistent/a"), URL(fileURLWithPath: "/nonexistent/b")]
        let message = DemoServerError.assetsNotFound(searched: places.map(\.path)).description
        #expect(!message.contains("\n"))
        #expect(message == "demo assets not found; looked in: /nonexistent/a, /nonexistent/b")
    }
}
