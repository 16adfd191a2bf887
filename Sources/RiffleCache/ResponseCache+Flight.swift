import Foundation
import RiffleHTTP
import RiffleJSON

extension ResponseCache {
    /// Everything one network step needs.
    struct Transfer: Sendable {
        var key: CacheKey
        var request: HTTPRequest
        var lifetime: CacheLifetime
        var location: BodyLocation
        /// Whether `validate` parses the body as JSON itself (a `Client`'s pipeline does, `target(_:)`).
        var checksJSON: Bool
        var validate: @Sendable (HTTPResponse) throws(RiffleError) -> Void
        var fetch: @Sendable (HTTPRequest) async throws(RiffleError) -> HTTPResponse
    }

    /// One transfer in progress and the callers waiting for it.
    struct Flight {
        var id: Int
        var task: Task<Void, Never>
        var waiters: [Int: CheckedContinuation<Result<CachedResponse, RiffleError>, Never>]
    }

    /// Joins the transfer in flight for the key or starts one; falls back to the stored entry marked
    /// `.stale` when the network fails and `staleIfError` allows it.
    func network(_ transfer: Transfer, conditional: CacheEntry?, staleIfError: Bool) async throws(RiffleError) -> CachedResponse {
        switch await join(transfer, conditional: conditional) {
        case .success(let value):
            return value
        case .failure(let error):
            let now = clock()
            if staleIfError, error.isNetworkFailure, let stale = entry(for: transfer.key, request: transfer.request, now: now) {
                if staleWarnings.insert(error.description).inserted {
                    configuration.log("network failed (\(error)); answering with stale entries from the cache (the first fetched \(Timestamp.age(of: stale.fetchedAt, now: now)))")
                }
                return stale.value(.stale, url: transfer.request.url, now: now, lifetime: transfer.lifetime)
            }
            throw error
        }
    }

    /// Waits for the key's shared transfer. A caller that is cancelled leaves at once with `.cancelled`;
    /// the others keep waiting, and the last one to leave cancels the transfer.
    private func join(_ transfer: Transfer, conditional: CacheEntry?) async -> Result<CachedResponse, RiffleError> {
        nextID += 1
        let waiter = nextID
        let key = Self.flightKey(transfer.request, key: transfer.key)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                if Task.isCancelled {
                    continuation.resume(returning: .failure(.cancelled))
                    return
                }
                if flights[key] == nil {
                    nextID += 1
                    let id = nextID
                    let task = Task { await self.run(transfer, conditional: conditional, flight: id, key: key) }
                    flights[key] = Flight(id: id, task: task, waiters: [:])
                }
                flights[key]?.waiters[waiter] = continuation
            }
        } onCancel: {
            Task { await self.leave(key, waiter: waiter) }
        }
    }

    /// Callers waiting on the transfer for `request` (for tests of coalescing and cancellation).
    func waiterCount(for request: HTTPRequest) -> Int { flights[Self.flightKey(request)]?.waiters.count ?? 0 }

    /// The key transfers for `request` share (`CacheKey.flight`).
    static func flightKey(_ request: HTTPRequest, key: CacheKey? = nil) -> CacheKey { CacheKey.flight(request, key: key) }

    private func leave(_ key: CacheKey, waiter: Int) {
        guard var flight = flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else { return }
        continuation.resume(returning: .failure(.cancelled))
        if flight.waiters.isEmpty {
            flight.task.cancel()
            flights[key] = nil
        } else {
            flights[key] = flight
        }
    }

    /// `key`: the transfer's flight key.
    private func run(_ transfer: Transfer, conditional: CacheEntry?, flight id: Int, key: CacheKey) async {
        let result = await perform(transfer, conditional: conditional)
        // Delivery and removal happen in this one actor step, so a caller arriving while the transfer
        // finishes either joins it (and gets this result) or arrives after and finds the stored entry.
        guard let flight = flights[key], flight.id == id else { return }
        flights[key] = nil
        for continuation in flight.waiters.values { continuation.resume(returning: result) }
    }

    private func perform(_ transfer: Transfer, conditional: CacheEntry?) async -> Result<CachedResponse, RiffleError> {
        var request = transfer.request
        if let conditional {
            if let etag = conditional.etag { request.headers["If-None-Match"] = etag }
            if let date = conditional.lastModified { request.headers["If-Modified-Since"] = date }
        }
        let response: HTTPResponse
        do { response = try await transfer.fetch(request) } catch { return .failure(error) }
        if Task.isCancelled { return .failure(.cancelled) }
        let now = clock()
        let freshness = Freshness(headers: response.headers, now: now)
        if response.status == 304, var entry = conditional {
            entry.fetchedAt = now
            entry.serverMaxAge = freshness.serverMaxAge ?? entry.serverMaxAge
            entry.etag = response.header("ETag") ?? entry.etag
            entry.lastModified = response.header("Last-Modified") ?? entry.lastModified
            await renew(entry)
            return .success(entry.value(.revalidated, url: response.url, now: now, lifetime: transfer.lifetime))
        }
        guard (200...299).contains(response.status) else {
            return .failure(RiffleError.status(of: response))
        }
        // Parsing is the slow part of a response: it runs off the actor, beside other transfers' steps.
        if let failure = await Self.check(response, transfer) { return .failure(failure) }
        if Task.isCancelled { return .failure(.cancelled) }
        // `no-store` is the server's last word unless the app's cache time was asked to win over it.
        if freshness.storable || transfer.lifetime.overridesServer {
            var owner: String?
            if case .named(_, let tag, _) = transfer.location { owner = tag }
            let entry = CacheEntry(key: transfer.key, status: response.status, headers: response.headers, body: response.body,
                                   fetchedAt: now, etag: response.header("ETag"), lastModified: response.header("Last-Modified"),
                                   serverMaxAge: freshness.serverMaxAge,
                                   vary: CacheKey.varyFingerprint(vary: response.header("Vary"), request: transfer.request), owner: owner)
            // The data first: an answer that cannot be stored (full disk, read-only or locked cache) is
            // still the answer.
            do { try await store(entry, at: transfer.location, response: response) } catch { warnNotStored(error) }
        }
        var value = CachedResponse(response: response, source: .network, fetchedAt: now, age: 0)
        value.freshUntil = transfer.lifetime.expiry(fetchedAt: now, serverMaxAge: freshness.serverMaxAge)
        return .success(value)
    }

    /// The content check and the caller's validation, off the actor; the error, or nil when the body may be stored.
    private nonisolated static func check(_ response: HTTPResponse, _ transfer: Transfer) async -> RiffleError? {
        do throws(RiffleError) {
            if !transfer.checksJSON { try checkContent(response, for: transfer.request) }
            try transfer.validate(response)
            return nil
        } catch {
            return error
        }
    }

    /// Only a body that matches its declared type is stored: JSON (or no type at all) must parse, unless
    /// the request asked for something other than JSON (an `Accept` without "json", e.g. the `*/*` of
    /// `Endpoint.bytes`): then the bytes are whatever the server has.
    static func checkContent(_ response: HTTPResponse, for request: HTTPRequest) throws(RiffleError) {
        if let accept = request.headers["Accept"], !accept.lowercased().contains("json") { return }
        let type = response.header("Content-Type")?.lowercased() ?? ""
        guard type.isEmpty || type.contains("json") else { return }
        // The tape pass checks exactly what `JSONParser.parse` does without building the values: a
        // page of a million small objects made a tree of 200 MB here.
        do { _ = try JSONDocument(response.body) } catch { throw .invalidJSON(error, in: response.body, from: response.url) }
    }
}

extension RiffleError {
    /// Failures where a stale entry is better than nothing: no answer at all, or a server error.
    var isNetworkFailure: Bool {
        switch self {
        case .cannotConnect, .dnsFailure, .offline, .timedOut, .tls, .transport: true
        case .cutShort(_, _, _, let ending): ending == .closed || ending == .timedOut
        case .httpStatus(let code, _): code >= 500
        default: false
        }
    }
}
