import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A response as RiffleKit needs it: status, headers and the whole body.
public struct HTTPResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data
    public var url: URL

    public init(status: Int, headers: [String: String], body: Data, url: URL) {
        self.status = status
        self.headers = headers
        self.body = body
        self.url = url
    }

    /// A header's value, whatever the case of `name`.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Something that can send a request and return the whole response.
public protocol HTTPTransporting: Sendable {
    /// Sends `request`; cancelling the calling task cancels the transfer.
    func send(_ request: URLRequest) async throws(RiffleError) -> HTTPResponse

    /// Sends `request`, telling `progress` (when given) how many bytes went up and came down.
    func send(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> HTTPResponse
}

extension HTTPTransporting {
    /// Without its own progress support a transport just sends.
    public func send(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> HTTPResponse {
        try await send(request)
    }
}

/// The URLSession-backed transport.
///
/// Ephemeral, with no URLCache and no cookies: on Linux Foundation's URLCache keys entries by host and
/// path only, so it would hand page 1 back for page 2; RiffleKit keeps its own cache.
public final class URLSessionTransport: HTTPTransporting {
    private let timeout: Int
    // Made on first use: creating a session loads libcurl and touches the file system, which a
    // browser painting a cached page should not wait for.
    private let lazySession = Mutex<URLSession?>(nil)

    /// - Parameter timeout: whole seconds (FoundationNetworking truncates fractions).
    public init(timeout: Int = 30) {
        self.timeout = max(1, timeout)
    }

    deinit { lazySession.withLock { $0?.finishTasksAndInvalidate() } }

    private var session: URLSession {
        lazySession.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.timeoutIntervalForRequest = TimeInterval(timeout)
            let made = URLSession(configuration: configuration)
            session = made
            return made
        }
    }

    public func send(_ request: URLRequest) async throws(RiffleError) -> HTTPResponse {
        try await send(request, progress: nil)
    }

    /// Sends `request`; with `progress`, a per-task delegate reports upload and download bytes.
    public func send(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> HTTPResponse {
        let url = request.url ?? URL(string: "about:blank")!
        do {
            let (data, response) = try await transfer(request, progress: progress)
            guard let http = response as? HTTPURLResponse else { throw RiffleError.transport("not an HTTP response from \(url.host ?? "")") }
            var headers: [String: String] = [:]
            for (key, value) in http.allHeaderFields {
                if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
            }
            return HTTPResponse(status: http.statusCode, headers: headers, body: data, url: http.url ?? url)
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw RiffleError(error, url: url)
        }
    }

    private func transfer(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws -> (Data, URLResponse) {
        guard let progress else { return try await session.data(for: request) }
        let delegate = ProgressDelegate(progress)
        let result: (Data, URLResponse)
        if let body = request.httpBody, !body.isEmpty {
            var upload = request
            upload.httpBody = nil
            result = try await session.upload(for: upload, from: body, delegate: delegate)
        } else {
            result = try await session.data(for: request, delegate: delegate)
        }
        // Callbacks still queued on the session's serial delegate queue run before this operation.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            session.delegateQueue.addOperation { done.resume() }
        }
        delegate.finish(uploaded: request.httpBody.map { Int64($0.count) }, downloaded: Int64(result.0.count))
        return result
    }
}
