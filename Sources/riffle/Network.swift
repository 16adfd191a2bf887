import Foundation
import RiffleBrowser
import RiffleKit

/// The one place riffle makes its `Client`: every command's page requests go through RiffleKit's public
/// pipeline (retries, `RIFFLE_LOG`, the libcurl transport) like any other program's would.
enum Network {
    /// A client for `feed`, telling `log` about events worth a line (credentials held back at a redirect)
    /// and `plugins` about every request (besides `RIFFLE_LOG`'s).
    static func client(for feed: Feed, plugins: [any ClientPlugin] = [],
                       log: @escaping @Sendable (String) -> Void = { _ in }) -> Client {
        var transport = CurlTransport.Configuration()
        transport.userAgent = "riffle/\(Usage.version)"
        transport.log = log
        var configuration = Client.Configuration(baseURL: feed.url(forPage: 1))
        configuration.plugins += plugins
        return Client(configuration, transport: CurlTransport(transport))
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
