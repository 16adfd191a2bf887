import Foundation
import Synchronization

/// The state shared by the accept thread and the connection threads of one `HTTPServer`.
final class ServerCore: Sendable {
    struct State {
        var stopped = false
        var listenerClosed = false
        var openConnections: Set<Int32> = []
        var requestCount = 0
        var connectionCount = 0
        var inFlight = 0
        var maxInFlight = 0
        var log: [HTTPServer.Request] = []
    }

    let listener: Int32
    let port: Int
    let handler: @Sendable (HTTPServer.Request) -> HTTPServer.Response
    let requestLogLimit: Int
    let state = Mutex(State())
    private let threads = DispatchGroup()
    // Lets stop() recognise a call from one of our own threads, which must not wait for itself.
    private let threadName: String

    init(requestLogLimit: Int, handler: @escaping @Sendable (HTTPServer.Request) -> HTTPServer.Response) throws(DemoServerError) {
        (listener, port) = try Socket.listenOnLoopback()
        self.handler = handler
        self.requestLogLimit = max(0, requestLogLimit)
        threadName = "riffle-http-\(port)"
    }

    var isStopped: Bool { state.withLock { $0.stopped } }

    func start() {
        threads.enter()
        let thread = Thread { [self] in
            acceptLoop()
            threads.leave()
        }
        thread.name = threadName
        thread.start()
    }

    func stop() {
        state.withLock { state in
            guard !state.stopped else { return }
            state.stopped = true
            // Shutdown, not close: the owning threads close their descriptors, so a number is never
            // reused by another open() while a thread still uses it.
            if !state.listenerClosed { Socket.shutdownBoth(listener) }
            for fd in state.openConnections { Socket.shutdownBoth(fd) }
        }
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

    private func acceptLoop() {
        defer {
            state.withLock { state in
                state.listenerClosed = true
                Socket.close(listener)
            }
        }
        while let fd = Socket.accept(listener) {
            let admitted = state.withLock { state in
                guard !state.stopped else { return false }
                state.openConnections.insert(fd)
                state.connectionCount += 1
                return true
            }
            guard admitted else { Socket.close(fd); return }
            threads.enter()
            let thread = Thread { [self] in
                var connection = Connection(fd: fd, core: self)
                connection.run()
                state.withLock { _ = $0.openConnections.remove(fd) }
                Socket.close(fd)
                threads.leave()
            }
            thread.name = threadName
            thread.start()
        }
    }
}
