import DemoServer
import Foundation
import Testing

/// `demo`, the name the browser's feed list gives the built-in demo, opens it from the command line
/// too: `riffle dump demo` serves it on 127.0.0.1 for as long as it runs, `riffle demo` browses it.
@Suite("the demo by its name: riffle dump demo, riffle demo", .serialized)
struct DemoByNameTests {
    @Test func dumpDemoPrintsTheDemosPagesAndOfflineReadsThemBack() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let cache = home.appending(path: "cache").path
        let environment = ["XDG_CONFIG_HOME": home.path]
        let expected = try DemoFeed.load().items(onPage: 2).map { String($0.id) }

        let online = try await RiffleBinary.run(["dump", "demo", "--pages", "2", "--cache-dir", cache, "--format", "tsv", "--fields", "id"],
                                                environment: environment)
        #expect(online.status == 0, "\(online.stderr)")
        #expect(online.stdout.split(separator: "\n").map(String.init) == expected, "\(online.stdout)")

        let offline = try await RiffleBinary.run(["dump", "demo", "--pages", "2", "--offline", "--cache-dir", cache, "--format", "tsv",
                                                  "--fields", "id"], environment: environment)
        #expect(offline.status == 0, "\(offline.stderr)")
        #expect(offline.stdout == online.stdout)
    }

    /// A feed the feeds file calls `demo` is the file's, as a feed named like a preset is.
    @Test func aFeedTheFileCallsDemoWinsOverTheBuiltInOne() async throws {
        let server = try HTTPServer { request in request.path == "/mine/1" ? .json(#"[{"id": "mine", "title": "my own demo"}]"#) : .json("[]") }
        defer { server.stop() }
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        try FileManager.default.createDirectory(at: home.appending(path: "riffle"), withIntermediateDirectories: true)
        try Data(#"{"feeds": {"demo": "\#(server.baseURL.absoluteString)/mine/{page}"}}"#.utf8).write(to: home.appending(path: "riffle/feeds.json"))
        let result = try await RiffleBinary.run(["dump", "demo", "--cache-dir", home.appending(path: "cache").path, "--format", "tsv",
                                                 "--fields", "id,title"], environment: ["XDG_CONFIG_HOME": home.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "mine\tmy own demo\n")
    }

    @Test func riffleDemoBrowsesTheDemo() async throws {
        let home = try RiffleBinary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: home) }
        let session = try TmuxSession(command: [RiffleBinary.url.path, "demo", "--cache-dir", home.appending(path: "cache").path],
                                      environment: ["LANG": "C.UTF-8", "TERM": "xterm-256color", "XDG_CONFIG_HOME": home.path])
        #expect(await session.waitFor { session.screen().contains("item 1/30") }, "\(session.screen())")
        #expect(session.screen().hasPrefix(" riffle demo"), "\(session.screen())")
        try session.send("q")
        #expect(await session.waitFor { session.exitStatus() != nil }, "\(session.screen())")
        #expect(session.exitStatus() == 0)
    }
}
