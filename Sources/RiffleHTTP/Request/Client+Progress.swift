extension Client {
    /// Sends `endpoint`, telling `progress` how many bytes went up and came down.
    public func send<Response>(_ endpoint: Endpoint<Response>,
                               progress: @escaping @Sendable (TransferProgress) -> Void) async throws(RiffleError) -> ClientResponse<Response> {
        try await perform(endpoint, context: TransferContext(progress: progress))
    }

    /// Starts sending `endpoint` and returns its progress as an `AsyncSequence` beside the response.
    ///
    /// ```swift
    /// let transfer = client.transfer(Endpoint<JSONValue>(.post, "/upload", body: .raw(video, contentType: "video/mp4")))
    /// for await step in transfer.progress { print(step.direction, step.completed, step.expected ?? -1) }
    /// let reply = try await transfer.response
    /// ```
    public func transfer<Response>(_ endpoint: Endpoint<Response>) -> Transfer<Response> {
        // The newest steps are kept when the reader is slow, so the final total always arrives.
        let (stream, continuation) = AsyncStream.makeStream(of: TransferProgress.self, bufferingPolicy: .bufferingNewest(64))
        let task = Task { () async -> Result<ClientResponse<Response>, RiffleError> in
            defer { continuation.finish() }
            do throws(RiffleError) {
                return .success(try await perform(endpoint, context: TransferContext(progress: { continuation.yield($0) })))
            } catch {
                return .failure(error)
            }
        }
        return Transfer(progress: stream, task: task)
    }
}

/// A request in flight: its progress, and its response once it is done.
public struct Transfer<Response: Sendable>: Sendable {
    /// Upload then download progress; finishes when the transfer ends.
    public let progress: AsyncStream<TransferProgress>
    let task: Task<Result<ClientResponse<Response>, RiffleError>, Never>

    /// The response; cancelling the task awaiting it cancels the transfer.
    public var response: ClientResponse<Response> {
        get async throws(RiffleError) {
            try await withTaskCancellationHandler { await task.value } onCancel: { task.cancel() }.get()
        }
    }

    /// Cancels the transfer; `response` then throws `RiffleError.cancelled`.
    public func cancel() { task.cancel() }
}
