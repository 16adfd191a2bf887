import Foundation
import Synchronization

/// The threads of one `HTTPServer` and the state they share.
///
/// One watcher thread accepts connections and holds every connection that is waiting for a request:
/// it polls them all, reads what arrives, and hands a connection with a whole request to a worker.
/// Workers, at most `workers` of them and started only when needed, answer requests; a worker gives
/// its connection back to the watcher once no whole request is left in it. So a thousand idle
/// keep-alive connections cost a thousand descriptors and no thread, and a connection that stays
/// idle (or trickles a request) for `idleTimeout` is closed.
final class ServerCore: Sendable {
    struct State {
        var stopped = false
        var requestCount = 0
        var connectionCount = 0
        var inFlight = 0
        var maxInFlight = 0
        var log: [HTTPServer.Request] = []
        /// Requests read whole, with their connections, waiting for a worker.
        var ready: [Job] = []
        /// Connections workers gave back, for the watcher to take up again.
        var returned: [Connection] = []
        /// Connections a worker is answering on (`stop()` shuts them down).
        var active: Set<Int32> = []
        /// Workers started, and those waiting for a connection.
        var workers = 0
        var waitingWorkers = 0
    }

    let listener: Int32
    let port: Int
    let handler: @Sendable (HTTPServer.Request) -> HTTPServer.Response
    let requestLogLimit: Int
    let maxWorkers: Int
    let idleTimeout: Duration
    let maxConnections: Int
    let state = Mutex(State())
    private let wakePipe: (read: Int32, write: Int32)
    private let work = DispatchSemaphore(value: 0)
    private let threads = DispatchGroup()
    /// The name of every thread of this server, short enough for Linux's 15-character thread names
    /// (`/proc/self/task/*/comm`); lets `stop()` recognise a call from one of them.
    let threadName: String

    init(requestLogLimit: Int, workers: Int, idleTimeout: Duration, maxConnections: Int,
         handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws(DemoServerError) {
        (listener, port) = try Socket.listenOnLoopback()
        do { wakePipe = try Socket.makeWakePipe() } catch { Socket.close(listener); throw error }
        self.handler = handler
        self.requestLogLimit = max(0, requestLogLimit)
        maxWorkers = max(1, workers)
        self.idleTimeout = max(.milliseconds(1), idleTimeout)
        self.maxConnections = max(1, maxConnections)
        threadName = "rh\(port)"
    }

    deinit {
        Socket.close(wakePipe.read)
        Socket.close(wakePipe.write)
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    func start() { spawn(watch) }

    func stop() {
        let waiting: Int = state.withLock { state in
            guard !state.stopped else { return 0 }
            state.stopped = true
            // Shutdown, not close: the owning threads close their descriptors, so a number is never
            // reused by another open() while a thread still uses it. New connections are refused from now.
            Socket.shutdownBoth(listener)
            for fd in state.active { Socket.shutdownBoth(fd) }
            for connection in state.ready.map(\.connection) + state.returned { Socket.close(connection.fd) }
            state.ready.removeAll()
            state.returned.removeAll()
            return state.workers
        }
        Socket.wake(wakePipe)
        for _ in 0..<waiting { work.signal() }
        guard Thread.current.name != threadName else { return }
        _ = threads.wait(timeout: .now() + 5)
    }

    /// Marks a response as sent (see `record`).
    func finish() { state.withLock { $0.inFlight -= 1 } }

    /// Logs a request and counts it as in flight until `finish()`.
    func record(_ request: HTTPServer.Request) {
        state.withLock { state in
            state.requestCount += 1
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            guard requestLogLimit > 0 else { return }
            // Trimmed in batches: dropping the oldest entry on every request would move the whole
            // log each time once it is full.
            if state.log.count >= requestLogLimit + requestLogLimit / 4 + 1 {
                state.log.removeFirst(state.log.count - requestLogLimit + 1)
            }
            state.log.append(request)
        }
    }

    private func spawn(_ body: @escaping @Sendable () -> Void) {
        threads.enter()
        let thread = Thread { [self] in
            Socket.nameCurrentThread(threadName)
            body()
            threads.leave()
        }
        thread.name = threadName
        thread.start()
    }

    // MARK: The watcher

    /// A connection waiting for a whole request, and when the watcher gives up on it.
    private struct Waiting {
        var connection: Connection
        var deadline: ContinuousClock.Instant
    }

    private func watch() {
        var waiting: [Waiting] = []
        defer {
            for entry in waiting { Socket.close(entry.connection.fd) }
            Socket.close(listener)
        }
        var listening = true
        while !isStopped {
            let now = ContinuousClock.now
            let returned = state.withLock { state in
                defer { state.returned.removeAll() }
                return state.returned
            }
            // A connection back from a worker may already hold its next request (or half of one).
            for connection in returned { take(connection, into: &waiting, now: now) }
            waiting.removeAll { entry in
                guard entry.deadline <= now else { return false }
                Socket.close(entry.connection.fd)
                return true
            }

            var fds = [pollfd(fd: wakePipe.read, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: listening ? listener : -1, events: Int16(POLLIN), revents: 0)]
            fds += waiting.map { pollfd(fd: $0.connection.fd, events: Int16(POLLIN), revents: 0) }
            let nearest = waiting.map(\.deadline).min().map { now.duration(to: $0) } ?? .seconds(1)
            let timeout = Int32(min(1_000, max(1, nearest.roundedUpMilliseconds)))
            let count = poll(&fds, nfds_t(fds.count), timeout)
            if count < 0 && errno != EINTR {
                // Not a reason to end: the listener stays open until stop(), which shuts it down.
                Socket.pause(milliseconds: 10)
                continue
            }
            if count <= 0 { continue }
            if fds[0].revents != 0 { Socket.drain(wakePipe) }
            if isStopped { return }

            let arrived = ContinuousClock.now
            var still: [Waiting] = []
            still.reserveCapacity(waiting.count)
            for (index, var entry) in waiting.enumerated() {
                guard fds[index + 2].revents != 0 else { still.append(entry); continue }
                guard entry.connection.receiveAvailable() else { Socket.close(entry.connection.fd); continue }
                if let kept = examine(entry.connection, arrived: arrived) {
                    entry.connection = kept
                    still.append(entry)
                }
            }
            waiting = still
            if fds[1].revents != 0 { listening = acceptAll(into: &waiting, now: arrived) }
        }
    }

    /// Takes `connection` into `waiting`, unless it already holds a request (then a worker gets it).
    private func take(_ connection: Connection, into waiting: inout [Waiting], now: ContinuousClock.Instant) {
        guard let kept = examine(connection, arrived: now) else { return }
        waiting.append(Waiting(connection: kept, deadline: now + idleTimeout))
    }

    /// Hands `connection` to a worker when it holds a whole request (or one to refuse) and returns nil;
    /// otherwise returns it (after `100 Continue` when that is due), or nil when it was closed.
    private func examine(_ connection: Connection, arrived: ContinuousClock.Instant) -> Connection? {
        var connection = connection
        switch connection.next(arrived: arrived) {
        case .incomplete(let sendContinue):
            if sendContinue && !connection.sendContinue() {
                Socket.close(connection.fd)
                return nil
            }
            if connection.peerClosed {
                Socket.close(connection.fd)
                return nil
            }
            return connection
        case let .request(request, keepAlive):
            dispatch(Job(connection: connection, request: request, keepAlive: keepAlive))
            return nil
        case let .reject(status, message):
            // Small and final: answered here rather than queued behind other requests.
            connection.reject(status: status, message: message)
            Socket.close(connection.fd)
            return nil
        }
    }

    /// Accepts every waiting connection; false once the listener is gone. At `maxConnections` the
    /// connection idle the longest is closed to make room: a new client is served before an idle one.
    private func acceptAll(into waiting: inout [Waiting], now: ContinuousClock.Instant) -> Bool {
        while true {
            switch Socket.accept(listener, sendTimeout: idleTimeout) {
            case .connection(let fd):
                let open = state.withLock { state in
                    state.connectionCount += 1
                    return state.active.count + state.ready.count
                }
                if waiting.count + open >= maxConnections {
                    if let oldest = waiting.indices.min(by: { waiting[$0].deadline < waiting[$1].deadline }) {
                        Socket.close(waiting.remove(at: oldest).connection.fd)
                    } else {
                        Socket.close(fd)
                        continue
                    }
                }
                waiting.append(Waiting(connection: Connection(fd: fd), deadline: now + idleTimeout))
            case .none:
                return true
            case .closed:
                return false
            }
        }
    }

    // MARK: Workers

    /// A whole request and the connection it came on.
    struct Job {
        var connection: Connection
        var request: HTTPServer.Request
        var keepAlive: Bool
    }

    /// Queues `job` for a worker, starting one when none is waiting and the pool is not full.
    private func dispatch(_ job: Job) {
        let startWorker = state.withLock { state -> Bool? in
            guard !state.stopped else { return nil }
            state.ready.append(job)
            guard state.waitingWorkers < state.ready.count, state.workers < maxWorkers else { return false }
            state.workers += 1
            return true
        }
        guard let startWorker else { Socket.close(job.connection.fd); return }
        if startWorker { spawn(workerLoop) }
        work.signal()
    }

    private func workerLoop() {
        while true {
            state.withLock { $0.waitingWorkers += 1 }
            work.wait()
            let job: Job? = state.withLock { state in
                state.waitingWorkers -= 1
                guard !state.stopped, !state.ready.isEmpty else { return nil }
                let job = state.ready.removeFirst()
                state.active.insert(job.connection.fd)
                return job
            }
            guard var job else {
                if isStopped { return }
                continue
            }
            let kept = serve(&job.connection, first: job.request, keepAlive: job.keepAlive)
            let fd = job.connection.fd
            let closeIt: Bool = state.withLock { state in
                state.active.remove(fd)
                guard kept, !state.stopped else { return true }
                state.returned.append(job.connection)
                return false
            }
            if closeIt { Socket.close(fd) } else { Socket.wake(wakePipe) }
        }
    }
}
