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
        var feed: Feed
        if forNetwork {
            let template = try server.withLock { server throws(Arguments.UsageError) -> String in
                if let server { return server.template }
                do {
                    let started = try DemoFeedServer()
                    server = started
                    return started.template
                } catch {
                    throw .init("could not start the demo feed: \(error)")
                }
            }
            feed = try FeedShelf.demoFeed(template: template)
        } else {
            feed = try FeedShelf.demoFeed(template: FeedShelf.offlineDemoTemplate)
        }
        if let firstPage { feed.firstPage = firstPage }
        return feed
    }

    private static let server = Mutex<DemoFeedServer?>(nil)
}
