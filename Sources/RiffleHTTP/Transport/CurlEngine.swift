import CCurl
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// libcurl's multi interface and the one thread that drives it.
///
/// Every libcurl call but `curl_multi_wakeup` happens on that thread. Other threads hand it work through
/// a lock (`submit`, `cancel`) and wake it; it adds the transfers, runs `curl_multi_perform`, finishes
/// what completed (resuming the waiting tasks), and sleeps in `curl_multi_poll` until a socket is
/// ready, libcurl's next timer is due, or it is woken.
///
/// A finished transfer frees its place in its `ConcurrencyLimit` here, on this thread, before anything
/// else: the next queued request is submitted and sent in the same turn of the loop.
final class CurlEngine: Sendable {
    private struct Inbox {
        var starts: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var stopping = false
        /// Requests sent by a `FollowOn`, oldest first, until a `perform` of the same request takes one.
        var ahead: [CurlTransfer] = []
        /// Transfers a `perform` made itself, from when it found no request sent ahead to take until
        /// its answer: a `FollowOn` sends none of these again. (Both looks under this lock: a caller
        /// and the transport's thread deciding at once send the request once.)
        var asked: [CurlTransfer] = []
    }

    /// Follow-on requests kept for their callers at most; an older one is dropped for a newer.
    static let aheadLimit = 4

    private let inbox = Mutex(Inbox())
    private let multi: MultiHandle
    /// The loaded libcurl's version, which decides how some options are set.
    private let version: CurlVersion
    /// The I/O thread's `pthread_self()`, so work it hands itself needs no wake-up.
    private let ioThread = Atomic<UInt>(0)

    init(_ configuration: CurlTransport.Configuration) throws(RiffleError) {
        var error = [CChar](repeating: 0, count: 256)
        guard rc_load(&error, error.count) == 0 else {
            throw .transport(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        version = .loaded
        guard let handle = rc_multi_init() else { throw .transport("curl_multi_init failed") }
        do throws(RiffleError) {
            // HTTP/2 multiplexing where the server offers it; a browser's number of connections per host.
            try CurlOptions.setMulti(handle, RC_CURLMOPT_PIPELINING, RC_CURLPIPE_MULTIPLEX, version: version)
            try CurlOptions.setMulti(handle, RC_CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost, version: version)
            try CurlOptions.setMulti(handle, RC_CURLMOPT_MAXCONNECTS, 4 * configuration.maxConnectionsPerHost, version: version)
        } catch {
            rc_multi_cleanup(handle)
            throw error
        }
        multi = MultiHandle(pointer: handle)
        // The thread keeps the engine until `stop()` lets it end.
        let thread = Thread { self.run(configuration) }
        thread.name = "riffle-curl"
        thread.qualityOfService = .userInitiated
        thread.start()
    }

    /// Sends `request` and waits for the whole answer (no redirects followed here).
    func perform(_ request: HTTPRequest, context: TransferContext) async throws(RiffleError) -> HTTPResponse {
        if Task.isCancelled { throw .cancelled }
        // Sent already, by the transfer before it (`FollowOn`): this caller takes it over. Else its
        // own transfer is noted as asked, so no follow-on sends the same request beside it.
        let (transfer, adopted) = inbox.withLock { inbox -> (CurlTransfer, CurlTransfer?) in
            if let index = inbox.ahead.firstIndex(where: { $0.request.asksSame(as: request) }) {
                let ahead = inbox.ahead.remove(at: index)
                return (ahead, ahead)
            }
            let own = CurlTransfer(request: request, context: context)
            inbox.asked.append(own)
            return (own, nil)
        }
        defer { if adopted == nil { inbox.withLock { $0.asked.removeAll { $0 === transfer } } } }
        if adopted != nil { context.started?() }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>) in
                transfer.wait(continuation)
                // One adopted was sent already and holds its own place in the limit.
                guard adopted == nil else { return }
                if let limit = context.limit {
                    limit.schedule { self.submit(transfer) }
                } else {
                    submit(transfer)
                }
            }
        } onCancel: {
            transfer.cancelled.store(true, ordering: .relaxed)
            self.post(cancel: transfer)
        }
        if adopted != nil, case .success(let response) = result, let progress = context.progress {
            // The transfer reported to no one while it ran: its caller gets the totals.
            if let sent = request.body, !sent.isEmpty {
                progress(TransferProgress(direction: .upload, completed: Int64(sent.count), expected: Int64(sent.count)))
            }
            progress(TransferProgress(direction: .download, completed: Int64(response.body.count), expected: Int64(response.body.count)))
        }
        return try result.get()
    }

    /// Ends the thread once nothing is in flight.
    func stop() {
        inbox.withLock { $0.stopping = true }
        _ = rc_multi_wakeup(multi.pointer)
    }

    private func submit(_ transfer: CurlTransfer) {
        inbox.withLock { $0.starts.append(transfer) }
        // From the I/O thread itself (a freed place handed on) the loop looks again before it sleeps.
        if ioThread.load(ordering: .relaxed) != UInt(pthread_self()) { _ = rc_multi_wakeup(multi.pointer) }
    }

    private func post(cancel transfer: CurlTransfer) {
        inbox.withLock { $0.cancels.append(transfer) }
        _ = rc_multi_wakeup(multi.pointer)
    }

    // MARK: The I/O thread

    private func run(_ configuration: CurlTransport.Configuration) {
        ioThread.store(UInt(pthread_self()), ordering: .relaxed)
        // Foundation's `Thread.name` does not reach the system on Linux when set before `start()`, and
        // Glibc's module hides `pthread_setname_np`: the kernel's own file names the thread, so it
        // shows as `riffle-curl` in /proc, `top -H` and a debugger.
        let comm = open("/proc/thread-self/comm", O_WRONLY | O_CLOEXEC)
        if comm >= 0 {
            _ = "riffle-curl".withCString { write(comm, $0, strlen($0)) }
            close(comm)
        }
        var running: [UnsafeMutableRawPointer: CurlTransfer] = [:]
        // Waiting tasks are resumed only once the requests queued behind them have left.
        var deliveries: [() -> Void] = []

        func finish(_ transfer: CurlTransfer, _ result: Result<HTTPResponse, RiffleError>) {
            if let easy = transfer.easy {
                _ = rc_multi_remove_handle(multi.pointer, easy)
                running[easy] = nil
            }
            // The place goes to the next request first, so it is sent in this same turn.
            if transfer.submitted { transfer.context.limit?.release() }
            guard let deliver = transfer.finish(result) else { return }
            // Someone waits for this answer: what follows it leaves now, before the answer is handed
            // on (a request taken by no one yet waits for its caller instead).
            if case .success(let response) = result, let followOn = transfer.context.followOn {
                sendAhead(followOn, after: response, limit: transfer.context.limit)
            }
            deliveries.append(deliver)
        }

        /// Starts what `followOn` says follows `response`, in the limit the finished transfer held.
        func sendAhead(_ followOn: FollowOn, after response: HTTPResponse, limit: ConcurrencyLimit?) {
            guard let (request, then) = followOn.next(response) else { return }
            var context = TransferContext(limit: limit)
            context.followOn = then
            let ahead = CurlTransfer(request: request, context: context)
            let dropped = inbox.withLock { inbox -> CurlTransfer? in
                // Its caller asked for it already, and sends it itself.
                guard !inbox.asked.contains(where: { $0.request.asksSame(as: request) }) else { return nil }
                // Not before a request already waiting for a place: that one goes first.
                if let limit, !limit.tryAcquire() { return nil }
                inbox.starts.append(ahead)
                inbox.ahead.append(ahead)
                return inbox.ahead.count > Self.aheadLimit ? inbox.ahead.removeFirst() : nil
            }
            if let dropped, !dropped.isFinished { finish(dropped, .failure(.cancelled)) }
        }

        while true {
            repeat {
                let (starts, cancels, stopping) = inbox.withLock { inbox in
                    defer { inbox.starts.removeAll(keepingCapacity: true); inbox.cancels.removeAll(keepingCapacity: true) }
                    return (inbox.starts, inbox.cancels, inbox.stopping)
                }
                for transfer in starts {
                    if transfer.isFinished {
                        // Cancelled while it waited for its place: hand the place on at once.
                        transfer.context.limit?.release()
                        continue
                    }
                    transfer.submitted = true
                    if transfer.cancelled.load(ordering: .relaxed) { finish(transfer, .failure(.cancelled)); continue }
                    switch transfer.makeHandle(configuration, version: version) {
                    case .success(let easy):
                        running[easy] = transfer
                        transfer.context.started?()
                        if rc_multi_add_handle(multi.pointer, easy) != 0 { finish(transfer, .failure(.transport("curl_multi_add_handle failed"))) }
                    case .failure(let error):
                        finish(transfer, .failure(error))
                    }
                }
                for transfer in cancels where !transfer.isFinished {
                    // Running, or still waiting for its place (it releases nothing until it gets one).
                    finish(transfer, .failure(.cancelled))
                }
                if stopping && running.isEmpty && deliveries.isEmpty {
                    rc_multi_cleanup(multi.pointer)
                    return
                }
                var active: Int32 = 0
                _ = rc_multi_perform(multi.pointer, &active)
                var easy: UnsafeMutableRawPointer?
                var code: Int32 = 0
                while rc_multi_next_done(multi.pointer, &easy, &code) == 1 {
                    guard let done = easy, let transfer = running[done] else { continue }
                    finish(transfer, transfer.result(code: code))
                }
                // A request queued behind one that just finished goes out now, not after the poll.
            } while inbox.withLock({ !$0.starts.isEmpty || !$0.cancels.isEmpty })
            for deliver in deliveries { deliver() }
            deliveries.removeAll(keepingCapacity: true)
            var ready: Int32 = 0
            _ = rc_multi_poll(multi.pointer, running.isEmpty ? 60_000 : 1_000, &ready)
        }
    }
}

/// libcurl's multi handle. Sendable because only the engine's thread uses it, but for
/// `curl_multi_wakeup`, which libcurl documents as callable from any thread.
struct MultiHandle: @unchecked Sendable {
    let pointer: UnsafeMutableRawPointer
}
