import Foundation

/// One keep-alive connection: its socket and the bytes read from it that no request has used yet.
///
/// A connection is a value handed between the server's watcher thread (while it waits for a whole
/// request) and a worker (while one is answered); only one of them holds it at a time.
struct Connection {
    static let maxHeadBytes = 64 * 1024
    static let maxBodyBytes = 64 * 1024 * 1024

    let fd: Int32
    private(set) var buffer: [UInt8] = []
    /// How far the buffer was searched for the end of the head, so a slow head is not searched again from the start.
    private var scanned = 0
    /// Whether `100 Continue` went out for the request being read.
    private(set) var continueSent = false
    /// The peer sent its last byte (a half-close): what is buffered is still answered, then the connection closes.
    private(set) var peerClosed = false

    init(fd: Int32) { self.fd = fd }

    /// What the buffered bytes hold.
    enum Next {
        /// Not a whole request yet; `sendContinue` when the head asked for `100 Continue` and it is due.
        case incomplete(sendContinue: Bool)
        /// A whole request, taken off the buffer.
        case request(HTTPServer.Request, keepAlive: Bool)
        /// A request that cannot be served: answer with this status and message, then close.
        case reject(status: Int, message: String)
    }

    /// The next request in the buffer, taken off it when whole. `arrived` becomes its `receivedAt`.
    mutating func next(arrived: ContinuousClock.Instant) -> Next {
        guard let end = RequestHead.endOfHead(in: buffer, from: max(0, scanned - 3)) else {
            scanned = buffer.count
            if buffer.count > Self.maxHeadBytes { return .reject(status: 431, message: "request head over 64 KiB") }
            return .incomplete(sendContinue: false)
        }
        guard let head = RequestHead(buffer[..<end]) else { return .reject(status: 400, message: "malformed request head") }
        if let encoding = head.header("transfer-encoding"), encoding.lowercased() != "identity" {
            return .reject(status: 411, message: "chunked request bodies are not supported; send Content-Length")
        }
        var length = 0
        if let text = head.header("content-length") {
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)), value >= 0 else {
                return .reject(status: 400, message: "bad Content-Length")
            }
            length = value
        }
        guard length <= Self.maxBodyBytes else { return .reject(status: 413, message: "request body over 64 MiB") }
        guard buffer.count - end >= length else {
            let wantsContinue = head.version == "HTTP/1.1" && head.header("expect")?.lowercased() == "100-continue"
            return .incomplete(sendContinue: wantsContinue && !continueSent)
        }
        let body = Data(buffer[end..<(end + length)])
        buffer.removeFirst(end + length)
        scanned = 0
        continueSent = false
        let request = HTTPServer.Request(method: head.method, target: head.target, version: head.version,
                                         headers: head.headers, body: body, receivedAt: arrived)
        return .request(request, keepAlive: head.wantsKeepAlive && !peerClosed)
    }

    /// Sends `100 Continue` for the request being read; false when the peer is gone.
    mutating func sendContinue() -> Bool {
        continueSent = true
        return Socket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8))
    }

    /// Reads what has arrived without waiting; false when the peer is gone and nothing is left to answer.
    mutating func receiveAvailable() -> Bool {
        switch Socket.receiveAvailable(fd, into: &buffer) {
        case .data, .nothing: return true
        case .endOfStream:
            peerClosed = true
            return !buffer.isEmpty
        case .failed: return false
        }
    }

    /// Answers a request the server cannot serve, before closing.
    func reject(status: Int, message: String) {
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
