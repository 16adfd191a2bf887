import Foundation

extension Client {
    /// Runs `body` as one call for the plugins, the one place their bookkeeping is written: `willSend`
    /// first, then exactly one of `didReceive` (with the answer `body` returns as the call's last) or
    /// `didFail` (`.cancelled` when the task was cancelled), each with the time since `willSend`.
    ///
    /// The request is built here, so an endpoint that cannot become one (no secondary base URL, a
    /// processor or a body that throws) is still a call the plugins see: `willSend` with no request,
    /// then `didFail` with the reason, and `body` never runs.
    func withPluginCall<Response, Value>(
        _ endpoint: Endpoint<Response>,
        _ body: (HTTPRequest) async throws(RiffleError) -> (value: Value, answer: CachedResponse)
    ) async throws(RiffleError) -> Value {
        let plugins = configuration.plugins
        let built: Result<HTTPRequest, RiffleError>
        do throws(RiffleError) { built = .success(try request(for: endpoint)) } catch { built = .failure(error) }
        let call = ClientCall(request: try? built.get(), name: endpoint.name, tags: endpoint.tags)
        let clock = ContinuousClock()
        let start = clock.now
        for plugin in plugins { plugin.willSend(call) }
        do throws(RiffleError) {
            let (value, answer) = try await body(try built.get())
            for plugin in plugins { plugin.didReceive(answer, for: call, duration: clock.now - start) }
            return value
        } catch {
            let reported: RiffleError = Task.isCancelled ? .cancelled : error
            for plugin in plugins { plugin.didFail(reported, for: call, duration: clock.now - start) }
            throw reported
        }
    }
}
