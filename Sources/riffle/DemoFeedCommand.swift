import DemoServer
import Foundation
import RiffleKit
import Synchronization

/// The built-in demo feed for the commands that name it (`riffle dump demo`, `riffle inspect demo`,
/// `riffle cache clear demo`): its server is started on 127.0.0.1 in this process when a command first
/// needs its pages, and serves until the process ends, as the browser's does (`FeedShelf`). A feed the
/// feeds file calls `demo` wins over it, as over a preset.
enum DemoFeedCommand {
    /// Whether `name` opens the built-in demo: it is the demo's name, and the feeds file (when it can
    /// be read) has no feed of that name.
    ///
    /// `--offline` reads the built-in demo from its server, which runs in riffle: no request leaves the
    /// machine, and the pages a run stored are filed under that run's port, never asked for again.
    static func isBuiltIn(_ name: String, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        name == FeedShelf.demoName && (try? FeedResolver.Catalogs.load(environment: environment))?.user[name] == nil
    }

    /// The demo feed; `forNetwork` false names it without starting its server (to clear or describe
    /// its pages, which are filed under one name whatever the port).
    static func feed(firstPage: Int?, forNetwork: Bool) throws(Arguments.UsageError) -> Feed {
        var feed = try forNetwork ? server.feed().feed : FeedShelf.demoFeed(template: FeedShelf.offlineDemoTemplate)
        if let firstPage { feed.firstPage = firstPage }
        return feed
    }

    private static let server = DemoServerSlot()
}

/// The built-in demo's server, started on first use and kept until `stop()`: the browser's shelf
/// holds one, the commands that name the demo another.
final class DemoServerSlot: Sendable {
    private let server = Mutex<DemoFeedServer?>(nil)
    private let failPage: Int?

    /// - Parameter failPage: the page the server fails (`--demo-fail`).
    init(failPage: Int? = nil) { self.failPage = failPage }

    /// The demo feed on its server; `started`: the server was started by this call.
    func feed() throws(Arguments.UsageError) -> (feed: Feed, started: Bool) {
        let (template, started) = try server.withLock { server throws(Arguments.UsageError) -> (String, Bool) in
            if let server { return (server.template, false) }
            do {
                let started = try DemoFeedServer(failPage: failPage)
                server = started
                return (started.template, true)
            } catch {
                throw .init("could not start the demo feed: \(error)")
            }
        }
        return (try FeedShelf.demoFeed(template: template), started)
    }

    func stop() { server.withLock { $0?.stop() } }
}
