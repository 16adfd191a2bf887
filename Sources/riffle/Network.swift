import Foundation
import RiffleBrowser
import RiffleKit

/// The one place riffle makes its transport and its `Client`s: every command's page requests go
/// through RiffleKit's public pipeline (retries, `RIFFLE_LOG`, the libcurl transport) like any other
/// program's would.
///
/// A command makes one transport (one libcurl engine thread, one pool of connections) and one
/// `ResponseCache` for the whole process, and passes them in; each feed gets a client of its own
/// (its base URL, its plugins) on that transport.
enum Network {
    /// The process's transport, telling `log` about events worth a line (credentials held back at a
    /// redirect). libcurl is loaded at its first request, not here.
    static func transport(log: @escaping @Sendable (String) -> Void = { _ in }) -> CurlTransport {
        var transport = CurlTransport.Configuration()
        transport.userAgent = "riffle/\(Usage.version)"
        transport.log = log
        return CurlTransport(transport)
    }

    /// A client for `feed` on `transport`, telling `plugins` about every request (besides `RIFFLE_LOG`'s).
    static func client(for feed: Feed, transport: CurlTransport, plugins: [any ClientPlugin] = []) -> Client {
        var configuration = Client.Configuration(baseURL: feed.url(forPage: 1))
        configuration.plugins += plugins
        return Client(configuration, transport: transport)
    }

    /// The process's response cache on `directory`, telling `log` what is worth a line.
    static func cache(_ directory: URL, log: @escaping @Sendable (String) -> Void = { _ in }) -> ResponseCache {
        var configuration = ResponseCache.Configuration()
        configuration.log = log
        return ResponseCache(directory: directory, configuration: configuration)
    }
}

/// Tells the browser a request will be tried again, and when: "retrying in 4 s (HTTP 429 Too Many Requests)".
struct RetryNotice: ClientPlugin {
    let notices: Notices

    func willRetry(_ call: ClientCall, after delay: Duration, because failure: RiffleError) {
        let seconds = Int((Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18).rounded(.up))
        notices.post("retrying in \(max(1, seconds)) s (\(failure))")
    }
}
