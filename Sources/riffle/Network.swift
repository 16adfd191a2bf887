import Foundation
import RiffleKit

/// The one place riffle makes its `Client`: every command's page requests go through RiffleKit's public
/// pipeline (retries, `RIFFLE_LOG`, the libcurl transport) like any other program's would.
enum Network {
    /// A client for `feed`, telling `log` about events worth a line (credentials held back at a redirect).
    static func client(for feed: Feed, log: @escaping @Sendable (String) -> Void = { _ in }) -> Client {
        var transport = CurlTransport.Configuration()
        transport.userAgent = "riffle/\(Usage.version)"
        transport.log = log
        return Client(Client.Configuration(baseURL: feed.url(forPage: 1)), transport: CurlTransport(transport))
    }
}
