extension Client {
    /// Requests a batch keeps in flight at once unless told otherwise: what browsers open per host.
    public static let defaultBatchConcurrency = 6

    /// Sends `endpoints`, at most `maxConcurrent` at a time, and returns every outcome in the order given.
    ///
    /// ```swift
    /// let pages = (1...3).map { Endpoint<JSONValue>(.get, "/items", query: ["page": String($0)]) }
    /// let results = await client.sendBatch(pages)
    /// for case .failure(let error) in results { print(error) }
    /// ```
    public func sendBatch<Response>(_ endpoints: [Endpoint<Response>], maxConcurrent: Int = Client.defaultBatchConcurrency)
        async -> [Result<ClientResponse<Response>, RiffleError>] {
        var results = [Result<ClientResponse<Response>, RiffleError>?](repeating: nil, count: endpoints.count)
        await run(endpoints, maxConcurrent: maxConcurrent) { index, result in
            results[index] = result
            return true
        }
        return results.map { $0 ?? .failure(.cancelled) }
    }

    /// Sends `endpoints`, at most `maxConcurrent` at a time; the first error to arrive cancels the
    /// others (and starts no more) and is thrown.
    /// - Returns: the responses in the order given.
    public func sendBatchFailingFast<Response>(_ endpoints: [Endpoint<Response>], maxConcurrent: Int = Client.defaultBatchConcurrency)
        async throws(RiffleError) -> [ClientResponse<Response>] {
        var responses = [ClientResponse<Response>?](repeating: nil, count: endpoints.count)
        var failure: RiffleError?
        await run(endpoints, maxConcurrent: maxConcurrent) { index, result in
            switch result {
            case .success(let response):
                responses[index] = response
                return true
            case .failure(let error):
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        return responses.map { $0! }
    }

    /// Runs the sends in a task group with a sliding window of `maxConcurrent`, telling `handle` each
    /// outcome as it arrives; `handle` returning false cancels the rest.
    private func run<Response>(_ endpoints: [Endpoint<Response>], maxConcurrent: Int,
                               handle: (Int, Result<ClientResponse<Response>, RiffleError>) -> Bool) async {
        await withTaskGroup(of: (Int, Result<ClientResponse<Response>, RiffleError>).self) { group in
            var next = 0
            func startNext() {
                guard next < endpoints.count else { return }
                let index = next, endpoint = endpoints[index]
                next += 1
                group.addTask { (index, await Self.result { () async throws(RiffleError) in try await self.send(endpoint) }) }
            }
            for _ in 0..<max(1, maxConcurrent) { startNext() }
            for await (index, result) in group {
                guard handle(index, result) else {
                    group.cancelAll()
                    return
                }
                startNext()
            }
        }
    }

    private static func result<T>(_ body: () async throws(RiffleError) -> T) async -> Result<T, RiffleError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
