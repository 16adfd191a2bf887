import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif

/// HTTP/1.1 over plain sockets for `http://` URLs on this machine (127.0.0.0/8, `::1`, `localhost`).
///
/// URLSession on Linux goes through libcurl and costs close to a millisecond per request even on
/// loopback, which dominates a local feed's page loads. This transport sends the request in one write,
/// reads the response straight off the socket and keeps connections alive between requests; it
/// speaks only what a loopback server needs (no TLS, proxies or content codings — it sends no
/// `Accept-Encoding`). Anything else is for `URLSessionTransport`; `DefaultTransport` routes between them.
///
/// The I/O blocks, so it runs on a Dispatch overcommit thread, never on the Swift cooperative pool.
/// Cancelling the calling task shuts the socket down and the call throws `.cancelled`.
///
/// ```swift
/// let transport = LoopbackTransport(fallback: URLSessionTransport())
/// let response = try await transport.send(URLRequest(url: server.url("/api/items")))
/// ```
public final class LoopbackTransport: HTTPTransporting, SlotScheduledTransport {
    /// Redirects followed before giving up, as URLSession does.
    public static let maxRedirects = 10
    /// `URLRequest.timeoutInterval` when nobody set it; the transport's own timeout applies then.
    private static let defaultRequestTimeout = URLRequest(url: URL(string: "http://localhost")!).timeoutInterval

    private let timeout: Int
    private let fallback: (any HTTPTransporting)?
    private let pool = ConnectionPool()

    /// - Parameters:
    ///   - timeout: seconds a request may take in all (connect, send, response, redirects) when the
    ///     request does not set its own `timeoutInterval` — the meaning FoundationNetworking gives it.
    ///   - fallback: sends what this transport cannot: requests that are not loopback plain HTTP and
    ///     redirects that leave loopback. Without one, such a request fails and such a redirect is
    ///     returned as the response.
    public init(timeout: Int = 30, fallback: (any HTTPTransporting)? = nil) {
        self.timeout = max(1, timeout)
        self.fallback = fallback
    }

    deinit { pool.closeAll() }

    /// Whether this transport sends `request` itself: plain `http://` to a loopback host, no body stream.
    public static func canSend(_ request: URLRequest) -> Bool {
        guard let url = request.url, request.httpBodyStream == nil else { return false }
        return LoopbackTarget(url) != nil
    }

    public func send(_ request: URLRequest) async throws(RiffleError) -> HTTPResponse {
        try await send(request, progress: nil)
    }

    /// Sends `request`; with `progress`, reports the request body once written and the response body
    /// as it arrives (the total as `expected` when the server gave a `Content-Length`).
    public func send(_ request: URLRequest, progress: (@Sendable (TransferProgress) -> Void)?) async throws(RiffleError) -> HTTPResponse {
        guard Self.canSend(request) else {
            if let fallback { return try await fallback.send(request, progress: progress) }
            throw .transport("not a plain-HTTP loopback URL: \(request.url?.absoluteString ?? "none")")
        }
        return try await transfer(request, progress, slots: nil)
    }

    /// Sends `request` when `slots` has room: its start runs on the thread that frees a slot (the I/O
    /// thread of the previous transfer, at one fetch at a time), and its own slot is freed on its I/O
    /// thread once the answer is read, before the awaiting task is resumed.
    func send(_ request: URLRequest, slots: FetchSlots) async throws(RiffleError) -> HTTPResponse {
        guard Self.canSend(request) else { return try await sendHoldingSlot(request, slots) }
        return try await transfer(request, nil, slots: slots)
    }

    /// The transfer itself: started at once, or when `slots` has room; the blocking part on a Dispatch
    /// thread; a redirect off loopback handed to the fallback.
    private func transfer(_ request: URLRequest, _ progress: (@Sendable (TransferProgress) -> Void)?,
                          slots: FetchSlots?) async throws(RiffleError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        // canSend checked the URL. The head is ready before the transfer's turn comes, so at its turn
        // the request only has to be written.
        guard let url = request.url, let target = LoopbackTarget(url) else { preconditionFailure("not a loopback URL") }
        let head = try RequestHead.serialize(request, url: url, method: Self.method(request), target: target)
        let cancel = CancelSwitch()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Outcome, RiffleError>, Never>) in
                let start: @Sendable () -> Void = { [self] in
                    // The deadline runs from the start of the transfer, not from a wait for a slot.
                    let deadline = deadline(for: request)
                    let sent = cancel.isCancelled ? nil : sendOnKeptConnection(request, head, target, cancel, deadline, progress)
                    // A serial queue of its own per transfer: serial queues run on Dispatch's overcommit
                    // pool, which adds a thread whenever all are busy. A concurrent queue would share the
                    // global pool's few threads (one per core) and blocking I/O would starve it.
                    DispatchQueue(label: "RiffleKit.LoopbackTransport").async { [self] in
                        let result = cancel.isCancelled && sent == nil ? .failure(.cancelled)
                            : Result { () throws(RiffleError) -> Outcome in try perform(request, (head, target), cancel, deadline, progress, sent: sent) }
                        if slots?.release() == true {
                            // The next request just left for a server on this machine. On a small
                            // machine the server thread that must read it often waits for this very
                            // CPU, and the task resumed below would otherwise run first.
                            sched_yield()
                        }
                        continuation.resume(returning: result)
                    }
                }
                if let slots { slots.schedule(start) } else { start() }
            }
        } onCancel: {
            cancel.cancel()
        }
        switch outcome {
        case .success(.response(let response)): return response
        case .success(.handOver(let redirected)):
            // perform hands over only when there is a fallback.
            guard let fallback else { preconditionFailure("handed over without a fallback") }
            return try await fallback.send(redirected, progress: progress)
        case .failure(let error): throw error
        }
    }

    /// What the blocking part ends with: a response, or a redirect for the fallback to follow.
    private enum Outcome: Sendable {
        case response(HTTPResponse)
        case handOver(URLRequest)
    }

    /// FoundationNetworking uses the request's timeoutInterval when it was set, else the session's,
    /// as one deadline for the whole task. "Set" is not public: the URLRequest default (60 s) stands
    /// for unset. Fractions are kept (FoundationNetworking truncates them).
    private func deadline(for request: URLRequest) -> ContinuousClock.Instant {
        let seconds = request.timeoutInterval == Self.defaultRequestTimeout || request.timeoutInterval <= 0
            ? Double(timeout) : request.timeoutInterval
        return ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    }

    /// Writes a small request on a kept-alive connection from the calling thread, so it is on its way
    /// before the I/O thread that waits for the answer has even woken up (a wake-up costs ~0.1 ms on a
    /// small VM, and at one request at a time it would sit between every answer and the next request).
    /// Nil when there is no idle connection, the body is large, progress is wanted, or the write fails:
    /// the I/O thread then does everything itself.
    private func sendOnKeptConnection(_ request: URLRequest, _ head: [UInt8], _ target: LoopbackTarget, _ cancel: CancelSwitch,
                                      _ deadline: ContinuousClock.Instant, _ progress: (@Sendable (TransferProgress) -> Void)?) -> Int32? {
        guard progress == nil, (request.httpBody?.count ?? 0) <= 16 * 1024, let fd = pool.take(target.poolKey) else { return nil }
        guard cancel.attach(fd) else { close(fd); return nil }
        do throws(SocketFailure) {
            try Self.send(head + (request.httpBody ?? Data()), fd, deadline)
            return fd
        } catch {
            cancel.detach()
            close(fd)
            return nil
        }
    }

    private static func method(_ request: URLRequest) -> String { request.httpMethod?.uppercased() ?? "GET" }

    /// Sends `request` (unless `sent` holds the connection it was already written on) and follows its
    /// redirects while they stay on loopback plain HTTP; blocks. `first`: the request's head and
    /// target, worked out before its turn.
    private func perform(_ request: URLRequest, _ first: (head: [UInt8], target: LoopbackTarget), _ cancel: CancelSwitch,
                         _ deadline: ContinuousClock.Instant, _ progress: (@Sendable (TransferProgress) -> Void)?,
                         sent: Int32?) throws(RiffleError) -> Outcome {
        var current = request
        var prepared: (head: [UInt8], target: LoopbackTarget)? = first
        var redirects = 0
        var sent = sent
        while true {
            // canSend checked the first URL and the loop checks each redirect's before coming round.
            guard let url = current.url, let target = prepared?.target ?? LoopbackTarget(url) else {
                preconditionFailure("not a loopback URL")
            }
            let response = try exchange(current, url, target, prepared?.head, deadline, cancel, progress, sent: sent)
            sent = nil
            prepared = nil
            guard let next = Redirect.follow(response, of: current), let nextURL = next.url else { return .response(response) }
            redirects += 1
            guard redirects <= Self.maxRedirects else {
                throw .transport("too many redirects (over \(Self.maxRedirects)) from \(target.hostDescription)")
            }
            guard LoopbackTarget(nextURL) != nil else { return fallback == nil ? .response(response) : .handOver(next) }
            current = next
        }
    }

    /// One request and response on a pooled or new connection. A pooled connection the server had
    /// already closed fails before any response byte arrives; an idempotent request then gets one
    /// more try on a fresh connection, as browsers and libcurl do.
    /// `serialized` is the request's head when the caller has it already.
    private func exchange(_ request: URLRequest, _ url: URL, _ target: LoopbackTarget, _ serialized: [UInt8]?,
                          _ deadline: ContinuousClock.Instant, _ cancel: CancelSwitch,
                          _ progress: (@Sendable (TransferProgress) -> Void)?, sent: Int32?) throws(RiffleError) -> HTTPResponse {
        let method = Self.method(request)
        let head: [UInt8]
        if let serialized { head = serialized } else { head = try RequestHead.serialize(request, url: url, method: method, target: target) }
        let body = request.httpBody ?? Data()
        var retried = false
        var sent = sent
        while true {
            var pooled = false
            var written = false
            let fd: Int32
            if let ready = sent {
                // Taken from the pool, attached and written by sendOnKeptConnection.
                sent = nil
                fd = ready
                pooled = true
                written = true
            } else if !retried, let idle = pool.take(target.poolKey) {
                guard cancel.attach(idle) else { close(idle); throw .cancelled }
                fd = idle
                pooled = true
            } else {
                do { fd = try LoopbackSocket.connect(to: target, until: deadline, cancel: cancel) } catch {
                    throw Self.riffleError(error, target, cancelled: cancel.isCancelled)
                }
            }
            var exchange = HTTP1Exchange(fd: fd, deadline: deadline)
            var bodyCut = false
            do throws(SocketFailure) {
                if !written {
                    do throws(SocketFailure) { try Self.write(head, body, fd, deadline, progress) } catch {
                        // A server may answer early (a 413, a 401) and close without reading the rest of
                        // the body. Its answer, when one arrived, is the response, as curl reports it.
                        guard error == .closed, !body.isEmpty else { throw error }
                        bodyCut = true
                    }
                }
                let responseHead = try exchange.readHead()
                let framing = try BodyFraming(responseHead, method: method)
                // A redirect about to be followed is not the body the caller asked for.
                let reports = progress != nil && Redirect.follow(status: responseHead.status, headers: responseHead.headers) == false
                let expected = Self.expectedLength(framing)
                var last: TransferProgress?
                let data = try exchange.readBody(framing) { total in
                    guard reports, let progress else { return }
                    let step = TransferProgress(direction: .download, completed: Int64(total), expected: expected)
                    progress(step)
                    last = step
                }
                // The final step always carries the total, as URLSessionTransport's does.
                let total = TransferProgress(direction: .download, completed: Int64(data.count), expected: Int64(data.count))
                if reports, let progress, last != total { progress(total) }
                let reusable = responseHead.allowsKeepAlive && framing != .untilClose && !exchange.hasLeftover && !bodyCut
                if cancel.detach() || !reusable { close(fd) } else { pool.put(fd, target.poolKey) }
                return HTTPResponse(status: responseHead.status, headers: responseHead.headers, body: data, url: url)
            } catch {
                cancel.detach()
                close(fd)
                if cancel.isCancelled { throw .cancelled }
                // A request that may have been acted on is not sent twice (POST, PATCH).
                if pooled && !retried && error == .closed && exchange.received == 0 && Redirect.idempotentMethods.contains(method) {
                    retried = true
                    continue
                }
                throw Self.riffleError(error, target, cancelled: false)
            }
        }
    }

    /// Head and body leave in one write when the body is small; a large body follows in pieces so
    /// upload progress can rise.
    private static func write(_ head: [UInt8], _ body: Data, _ fd: Int32, _ deadline: ContinuousClock.Instant,
                              _ progress: (@Sendable (TransferProgress) -> Void)?) throws(SocketFailure) {
        let piece = 256 * 1024
        if body.count <= 64 * 1024 {
            try send(head + body, fd, deadline)
        } else {
            try send(head, fd, deadline)
            var offset = 0
            while offset < body.count {
                let end = min(body.count, offset + piece)
                try send(body[body.startIndex + offset ..< body.startIndex + end], fd, deadline)
                offset = end
                if end < body.count {
                    progress?(TransferProgress(direction: .upload, completed: Int64(end), expected: Int64(body.count)))
                }
            }
        }
        if !body.isEmpty {
            progress?(TransferProgress(direction: .upload, completed: Int64(body.count), expected: Int64(body.count)))
        }
    }

    /// withUnsafeBytes rethrows as `any Error`; a Result keeps the failure typed.
    private static func send(_ bytes: some DataProtocol & ContiguousBytes, _ fd: Int32,
                             _ deadline: ContinuousClock.Instant) throws(SocketFailure) {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(SocketFailure) in try LoopbackSocket.send(fd, raw, until: deadline) }
        }.get()
    }

    private static func expectedLength(_ framing: BodyFraming) -> Int64? {
        switch framing {
        case .none: 0
        case .length(let length): Int64(length)
        case .chunked, .untilClose: nil
        }
    }

    /// The `RiffleError` URLSessionTransport would report for the same failure.
    private static func riffleError(_ failure: SocketFailure, _ target: LoopbackTarget, cancelled: Bool) -> RiffleError {
        if cancelled { return .cancelled }
        switch failure {
        case .cannotConnect(let reason): return .cannotConnect(host: target.hostDescription, reason: reason)
        case .timedOut: return .timedOut(host: target.hostDescription)
        case .closed: return .cannotConnect(host: target.hostDescription, reason: RiffleError.connectionLostReason)
        case .malformed(let what):
            return .transport(RiffleError.oneLine("malformed HTTP response from \(target.hostDescription): \(what)"))
        }
    }
}

/// The request head as it goes on the wire.
enum RequestHead {
    /// Header names the transport writes itself.
    private static let managed: Set<String> = ["host", "content-length", "transfer-encoding", "connection", "accept-encoding"]

    static func serialize(_ request: URLRequest, url: URL, method: String, target: LoopbackTarget) throws(RiffleError) -> [UInt8] {
        guard !method.isEmpty, method.allSatisfy({ $0.isLetter || $0 == "-" }) else { throw .transport("invalid HTTP method \"\(method)\"") }
        var path = url.path(percentEncoded: true)
        if path.isEmpty { path = "/" }
        if let query = url.query(percentEncoded: true) { path += "?" + query }
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(target.hostHeader)\r\n"
        for (name, value) in (request.allHTTPHeaderFields ?? [:]).sorted(by: { $0.key < $1.key })
        where !managed.contains(name.lowercased()) {
            guard !name.contains(where: \.isNewline), !value.contains(where: \.isNewline) else {
                throw .transport("header \(RiffleError.oneLine(name)) holds a line break")
            }
            head += "\(name): \(value)\r\n"
        }
        let length = request.httpBody?.count ?? 0
        if length > 0 || ["POST", "PUT", "PATCH"].contains(method) { head += "Content-Length: \(length)\r\n" }
        head += "\r\n"
        return Array(head.utf8)
    }
}

/// Which redirects are followed and the request each one becomes, as URLSession does it.
enum Redirect {
    static let statuses: Set<Int> = [301, 302, 303, 307, 308]
    static let idempotentMethods: Set<String> = ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"]

    /// Whether a response with this status and headers is a redirect that will be followed.
    static func follow(status: Int, headers: [String: String]) -> Bool {
        statuses.contains(status) && headers["location"].map { !$0.isEmpty } == true
    }

    /// The request that follows `response`, or nil when it is not a redirect to follow.
    static func follow(_ response: HTTPResponse, of request: URLRequest) -> URLRequest? {
        guard follow(status: response.status, headers: response.headers), let location = response.headers["location"],
              let base = request.url, let next = URL(string: location, relativeTo: base)?.absoluteURL,
              let scheme = next.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return nil }
        var redirected = request
        redirected.url = next
        let method = request.httpMethod?.uppercased() ?? "GET"
        // 303 always becomes GET; 301 and 302 turn a POST into a GET, as browsers and URLSession do.
        if (response.status == 303 && method != "HEAD") || ([301, 302].contains(response.status) && method == "POST") {
            redirected.httpMethod = "GET"
            redirected.httpBody = nil
            redirected.setValue(nil, forHTTPHeaderField: "Content-Type")
        }
        // Credentials are for the origin they were given to.
        if next.host != base.host || next.port != base.port || next.scheme != base.scheme {
            redirected.setValue(nil, forHTTPHeaderField: "Authorization")
            redirected.setValue(nil, forHTTPHeaderField: "Cookie")
        }
        return redirected
    }
}
