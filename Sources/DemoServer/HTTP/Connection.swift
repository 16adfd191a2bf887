import Foundation

/// Serves the requests of one keep-alive connection, in order, on the calling thread.
struct Connection {
    static let maxHeadBytes = 64 * 1024
    static let maxBodyBytes = 64 * 1024 * 1024

    let fd: Int32
    let core: ServerCore
    private var buffer: [UInt8] = []
    /// When the bytes of the request being read arrived: the last read that added to it, or the
    /// start of the read for a request that was already buffered (pipelined).
    private var arrival = ContinuousClock.now

    init(fd: Int32, core: ServerCore) {
        self.fd = fd
        self.core = core
    }

    mutating func run() {
        while let head = readHead() {
            guard let request = readRequest(head) else { return }
            // The latency runs from the request's arrival, and the answer is ready before the wait
            // ends: a 5 ms server answers 5 ms after it was asked, not 5 ms plus its own work
            // (parsing included).
            let arrived = request.receivedAt
            core.record(request)
            let response = core.handler(request)
            let keepAlive = head.wantsKeepAlive && response.header("Connection")?.lowercased() != "close" && !core.isStopped
            let bytes = Self.serialize(response, for: request, keepAlive: keepAlive)
            if response.delay > .zero && !wait(until: arrived + response.delay) { core.finish(); return }
            let sent = Socket.sendAll(fd, bytes)
            core.finish()
            guard sent, keepAlive else { return }
        }
    }

    /// Reads up to the blank line ending the head; nil when the connection ends or the head is unusable.
    private mutating func readHead() -> RequestHead? {
        arrival = .now
        var scanned = 0
        while true {
            if let end = RequestHead.endOfHead(in: buffer, from: max(0, scanned - 3)) {
                let headBytes = buffer[..<end]
                buffer.removeFirst(end)
                guard let head = RequestHead(headBytes) else { reject(400, "malformed request head"); return nil }
                return head
            }
            scanned = buffer.count
            guard buffer.count <= Self.maxHeadBytes else { reject(431, "request head over 64 KiB"); return nil }
            guard receive() else { return nil }
        }
    }

    /// Reads the body `head` announces; nil (after answering with an error where useful) when it cannot.
    private mutating func readRequest(_ head: RequestHead) -> HTTPServer.Request? {
        if let encoding = head.header("transfer-encoding"), encoding.lowercased() != "identity" {
            reject(411, "chunked request bodies are not supported; send Content-Length")
            return nil
        }
        var length = 0
        if let text = head.header("content-length") {
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                reject(400, "bad Content-Length"); return nil
            }
            length = value
        }
        guard length <= Self.maxBodyBytes else { reject(413, "request body over 64 MiB"); return nil }
        if length > buffer.count, head.version == "HTTP/1.1", head.header("expect")?.lowercased() == "100-continue" {
            guard Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return nil }
        }
        while buffer.count < length {
            guard receive() else { return nil }
        }
        let body = Data(buffer[..<length])
        buffer.removeFirst(length)
        return HTTPServer.Request(method: head.method, target: head.target, version: head.version,
                                  headers: head.headers, body: body, receivedAt: arrival)
    }

    /// Reads what is available onto the buffer, noting when it came; false at end of stream.
    private mutating func receive() -> Bool {
        guard Socket.receive(fd, into: &buffer) else { return false }
        arrival = .now
        return true
    }

    /// Sleeps until `deadline` unless the peer disconnects or the server stops first; false means give up.
    private func wait(until deadline: ContinuousClock.Instant) -> Bool {
        while true {
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return true }
            if core.isStopped { return false }
            // poll counts whole milliseconds and rounds its wait up, and each wake-up costs tens of
            // microseconds here: a short wait is one exact sleep, so a 5 ms latency is 5 ms and
            // benchmarks measure the client, not the server. Long waits watch for a disconnect.
            if remaining < .milliseconds(50) {
                Socket.sleep(until: deadline)
                return !core.isStopped
            }
            // Capped at 1 s so a stop() that raced past our isStopped check is noticed soon anyway.
            let milliseconds = Int32(min(1_000, max(1, (remaining - .milliseconds(1)).milliseconds)))
            if Socket.waitReadable(fd, milliseconds: milliseconds) {
                if Socket.isClosed(fd) || core.isStopped { return false }
                // The client pipelined another request; poll would return at once, so just sleep.
                Socket.pause(milliseconds: milliseconds)
            }
        }
    }

    private func reject(_ status: Int, _ message: String) {
        let response = HTTPServer.Response.text(message + "\n", status: status)
        _ = Socket.sendAll(fd, Self.serialize(response, for: nil, keepAlive: false))
    }

    /// Head and body in one buffer, so they leave in one send and never wait on Nagle.
    static func serialize(_ response: HTTPServer.Response, for request: HTTPServer.Request?, keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(response.reason)\r\n"
        for (name, value) in response.headers {
            switch name.lowercased() {
            case "content-length", "connection", "transfer-encoding": continue
            default: head += "\(name): \(value)\r\n"
            }
        }
        if !response.forbidsBody { head += "Content-Length: \(response.body.count)\r\n" }
        if !keepAlive {
            head += "Connection: close\r\n"
        } else if request?.version == "HTTP/1.0" {
            head += "Connection: keep-alive\r\n"
        }
        head += "\r\n"
        var bytes = Array(head.utf8)
        if !response.forbidsBody && request?.method != "HEAD" { bytes.append(contentsOf: response.body) }
        return bytes
    }
}

private extension Duration {
    /// Whole milliseconds, rounded up so a short wait never becomes a busy loop of zero-length polls.
    var milliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
    }
}
