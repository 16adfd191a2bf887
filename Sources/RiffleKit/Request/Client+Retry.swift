import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Client {
    /// The transport call for `endpoint`, wrapped in its retries. This is the `fetch` a cache calls.
    func fetcher<Response>(for endpoint: Endpoint<Response>, progress: (@Sendable (TransferProgress) -> Void)?)
        -> @Sendable (URLRequest) async throws(RiffleError) -> HTTPResponse {
        let transport = self.transport
        let policy = configuration.retry
        let sleep = configuration.sleep
        let retries = switch endpoint.retry {
        case .never: 0
        case .always: policy.maxRetries
        case .whenIdempotent: endpoint.method.isIdempotent ? policy.maxRetries : 0
        }
        return { request throws(RiffleError) in
            var attempt = 0
            while true {
                let wait: Duration
                do throws(RiffleError) {
                    let response = try await transport.send(request, progress: progress)
                    guard attempt < retries, RetryPolicy.transientStatuses.contains(response.status) else { return response }
                    wait = policy.delay(beforeRetry: attempt, retryAfter: response.header("retry-after"))
                } catch {
                    guard attempt < retries, RetryPolicy.isTransient(error) else { throw error }
                    wait = policy.delay(beforeRetry: attempt)
                }
                do { try await sleep(wait) } catch { throw .cancelled }
                if Task.isCancelled { throw .cancelled }
                attempt += 1
            }
        }
    }
}
