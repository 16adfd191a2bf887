import DemoServer
import Foundation
import NcursesTerminal
import RiffleKit
import RiffleTUI

/// `riffle [URL]`: the interactive browser.
enum BrowseCommand {
    static func run(feedArgument: String?, arguments: Arguments) -> Int32 {
        // Everything that can be wrong with the command line is reported before the terminal is touched.
        var feed: Feed?
        if let feedArgument {
            do { feed = try Feed(template: feedArgument, firstPage: arguments.firstPage) } catch { fail("\(error)", status: 2) }
        }
        guard isatty(STDOUT_FILENO) == 1 else { fail("standard output is not a terminal; the browser needs one", status: 2) }
        guard isatty(STDIN_FILENO) == 1 else { fail("standard input is not a terminal; the browser needs one for keys", status: 2) }

        let cacheDirectory = CacheLocation.resolve(arguments.cacheDirectory)
        var demo: DemoFeedServer?
        if feed == nil {
            do {
                let server = try DemoFeedServer(failPage: arguments.demoFailPage)
                demo = server
                feed = try Feed(template: server.template, name: "riffle demo", cacheIdentity: "riffle-demo")
            } catch {
                fail("could not start the demo feed: \(error)", status: 1)
            }
        }
        guard let feed else { return 1 }
        defer { demo?.stop() }
        if demo != nil {
            // The demo always starts from its server, so the spinner and --demo-fail are seen.
            try? FileManager.default.removeItem(at: PageStore(cacheDirectory: cacheDirectory, feedID: feed.id).directory)
        }

        signal(SIGPIPE, SIG_IGN)
        let loader = PageLoader(feed: feed, cacheDirectory: cacheDirectory, transport: URLSessionTransport())
        let environment = ProcessInfo.processInfo.environment
        let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || arguments.theme == "mono"
        let theme: Theme = arguments.theme == "light" ? .light : .dark
        let screen = NcursesScreen(theme: theme, colors: !noColor)
        let status = BrowserLoop(screen: screen, loader: loader, title: feed.name).run()
        screen.close()
        return status
    }
}
