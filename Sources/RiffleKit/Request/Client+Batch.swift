extension Client {
    /// Sends `endpoints` concurrently and returns every outcome, in the order given.
    ///
    /// ```swift
    /// let results = await client.sendBatch([.page(1), .page(2), .page(3)])
    /// for case .failure(let error) in results { print(error) }
    /// ```
    public func sendBatch<Response>(_ endpoints: [Endpoint<Response>]) async -> [Result<ClientResponse<Response>, RiffleError>] {
        await withTaskGroup(of: (Int, Result<ClientResponse<Response>, RiffleError>).self) { group in
            for (index, endpoint) in endpoints.enumerated() {
                group.addTask { (index, await Self.result { () async throws(RiffleError) in try await self.send(endpoint) }) }
            }
            var results = [Result<ClientResponse<Response>, RiffleError>?](repeating: nil, count: endpoints.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
    }

    /// Sends `endpoints` concurrently; the first error to arrive cancels the others and is thrown.
    /// - Returns: the responses in the order given.
    public func sendBatchFailingFast<Response>(_ endpoints: [Endpoint<Response>]) async throws(RiffleError) -> [ClientResponse<Response>] {
        let outcome: Result<[ClientResponse<Response>], RiffleError> =
            await withTaskGroup(of: (Int, Result<ClientResponse<Response>, RiffleError>).self) { group in
                for (index, endpoint) in endpoints.enumerated() {
                    group.addTask { (index, await Self.result { () async throws(RiffleError) in try await self.send(endpoint) }) }
                }
                var responses = [ClientResponse<Response>?](repeating: nil, count: endpoints.count)
                for await (index, result) in group {
                    switch result {
                    case .success(let response): responses[index] = response
                    case .failure(let error):
                        group.cancelAll()
                        return .failure(error)
                    }
                }
                return .success(responses.map { $0! })
            }
        return try outcome.get()
    }

    private static func result<T>(_ body: () async throws(RiffleError) -> T) async -> Result<T, RiffleError> {
        do { return .success(try await body()) } catch { return .failure(error) }
    }
}
