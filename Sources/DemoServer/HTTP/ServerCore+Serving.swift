import Foundation

extension ServerCore {
    /// How long a worker waits, after an answer, for the next request on the same connection before
    /// giving the connection back to the watcher.
    static let lingerMilliseconds: Int32 = 5

    /// Answers `request`, then every further whole request already buffered on `connection`
    /// (pipelined), in order, on the calling worker. Returns true when the connection stays open for
    /// more requests, false when it is to be closed.
    func serve(_ connection: inout Connection, first request: HTTPServer.Request, keepAlive wantsKeepAlive: Bool) -> Bool {
        var request = request
        var wantsKeepAlive = wantsKeepAlive
        while true {
            // The latency runs from the request's arrival, and the answer is ready before the wait
            // ends: a 5 ms server answers 5 ms after it was asked, not 5 ms plus its own work
            // (parsing included).
            let arrived = request.receivedAt
            record(request)
            let response = handler(request)
            let keepAlive = wantsKeepAlive && response.header("Connection")?.lowercased() != "close" && !isStopped
            let bytes = Connection.serialize(response, for: request, keepAlive: keepAlive)
            if response.delay > .zero && !wait(on: connection.fd, until: arrived + response.delay) {
                finish()
                return false
            }
            let sent = Socket.sendAll(connection.fd, bytes)
            finish()
            guard sent, keepAlive else { return false }
            // A client that sends its next request at once (a serial load does, within a fraction of
            // a millisecond) is read here, at the moment it arrives, rather than after a hand-off
            // to the watcher and back: each thread wake-up is late by 0.1-0.2 ms on a small machine,
            // and the request's latency runs from its recorded arrival.
            if connection.buffer.isEmpty, Socket.waitReadable(connection.fd, milliseconds: Self.lingerMilliseconds) {
                guard connection.receiveAvailable() else { return false }
            }
            switch connection.next(arrived: .now) {
            case let .request(next, keepAlive):
                request = next
                wantsKeepAlive = keepAlive
            case .incomplete:
                // Back to the watcher, which sends a due `100 Continue` and waits for the rest.
                return true
            case let .reject(status, message):
                connection.reject(status: status, message: message)
                return false
            }
        }
    }

    /// Sleeps until `deadline` unless the peer disconnects or the server stops first; false means give up.
    private func wait(on fd: Int32, until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return true }
            if isStopped { return false }
            // poll counts whole milliseconds and rounds its wait up, and each wake-up costs tens of
            // microseconds here: a short wait is one exact sleep, so a 5 ms latency is 5 ms and
            // benchmarks measure the client, not the server. Long waits watch for a disconnect.
            if remaining < .milliseconds(50) {
                Socket.sleep(until: deadline)
                return !isStopped
            }
            // Capped at 1 s so a stop() that raced past our isStopped check is noticed soon anyway.
            let milliseconds = Int32(min(1_000, max(1, (remaining - .milliseconds(1)).roundedUpMilliseconds)))
            if Socket.waitReadable(fd, milliseconds: milliseconds) {
                if Socket.isClosed(fd) || isStopped { return false }
                // The client pipelined another request; poll would return at once, so just sleep.
                Socket.pause(milliseconds: milliseconds)
            }
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a short wait never becomes a busy loop of zero-length polls.
    var roundedUpMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
