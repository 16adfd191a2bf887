import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession set up like RiffleKit's transport: no cache, no cookies, nothing written under $HOME.
enum TestHTTP {
    /// Shared by tests that don't care which connection carries their requests.
    static let session = makeSession()

    /// A session of one's own: libcurl's connection pool is per session, so parallel tests sharing one can
    /// evict each other's idle connections.
    static func makeSession() -> URLSession {
        // FoundationNetworking creates cache folders for any configuration; keep them out of $HOME.
        let scratch = FileManager.default.temporaryDirectory.appending(path: "riffle-demoserver-tests").path
        setenv("XDG_CACHE_HOME", scratch, 1)
        setenv("XDG_DATA_HOME", scratch, 1)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.timeoutIntervalForRequest = 10
        return URLSession(configuration: configuration)
    }

    static func get(_ url: URL, headers: [String: String] = [:], session: URLSession = session) async throws -> (Data, HTTPURLResponse) {
        var request = URLRequest(url: url)
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await session.data(for: request)
        return (data, response as! HTTPURLResponse)
    }
}
