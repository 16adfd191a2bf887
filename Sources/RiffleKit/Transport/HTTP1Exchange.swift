import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The head of an HTTP/1.x response.
struct ResponseHead: Equatable {
    var minorVersion: Int
    var status: Int
    /// Names lowercased; a repeated header's values joined with ", ".
    var headers: [String: String]

    /// Parses the bytes before the blank line; `.malformed` naming what was wrong.
    init(_ bytes: ArraySlice<UInt8>) throws(SocketFailure) {
        // Split on bytes: as Characters, "\r\n" is one grapheme that a split on "\n" would not see.
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)[...]
        }
        let statusLine = lines.isEmpty ? "" : lines.removeFirst()
        // "HTTP/1.1 200 OK": a version, one space, three digits, then a space and a reason or nothing.
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let minor = Int(parts[0].dropFirst(7)),
              parts[1].count == 3, parts[1].allSatisfy(\.isASCII), let status = Int(parts[1]), status >= 100 else {
            throw .malformed("status line \"\(statusLine.prefix(60))\"")
        }
        minorVersion = minor
        self.status = status
        var headers: [String: String] = [:]
        var lastName: String?
        for line in lines where !line.isEmpty {
            if line.first == " " || line.first == "\t", let name = lastName {
                // Obsolete line folding: a continuation of the previous value.
                headers[name, default: ""] += " " + line.trimmingCharacters(in: .whitespaces)
                continue
            }
            guard let colon = line.firstIndex(of: ":"), colon != line.startIndex else {
                throw .malformed("header line \"\(line.prefix(60))\"")
            }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            if let earlier = headers[name] { headers[name] = earlier + ", " + value } else { headers[name] = value }
            lastName = name
        }
        self.headers = headers
    }

    /// Whether the connection may carry another request after this response.
    var allowsKeepAlive: Bool {
        let tokens = (headers["connection"] ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}

/// How a response body is delimited on the wire.
enum BodyFraming: Equatable {
    case none
    case length(Int)
    case chunked
    /// No length given: the body runs until the server closes the connection.
    case untilClose

    /// RFC 9112 §6.3: no body for HEAD, 1xx, 204 and 304; chunked wins over Content-Length.
    init(_ head: ResponseHead, method: String) throws(SocketFailure) {
        if method == "HEAD" || (100..<200).contains(head.status) || head.status == 204 || head.status == 304 {
            self = .none
        } else if let coding = head.headers["transfer-encoding"] {
            let last = coding.split(separator: ",").last?.trimmingCharacters(in: .whitespaces).lowercased()
            self = last == "chunked" ? .chunked : .untilClose
        } else if let text = head.headers["content-length"] {
            // Repeated identical values arrive joined ("12, 12"); differing ones are an error.
            let values = Set(text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
            guard values.count == 1, let length = Int(values.first!), length >= 0 else {
                throw .malformed("Content-Length \"\(text.prefix(40))\"")
            }
            self = .length(length)
        } else {
            self = .untilClose
        }
    }
}

/// One request and its response over a connected socket, with the bytes read but not yet consumed.
struct HTTP1Exchange {
    static let maxHeadBytes = 64 * 1024
    static let maxChunkLine = 4 * 1024
    static let readSize = 64 * 1024

    let fd: Int32
    let deadline: ContinuousClock.Instant
    private var buffer: [UInt8] = []
    private var start = 0
    /// Response bytes received so far; zero means the server never began to answer.
    private(set) var received = 0

    init(fd: Int32, deadline: ContinuousClock.Instant) {
        self.fd = fd
        self.deadline = deadline
    }

    /// Bytes received beyond the response (a misbehaving server); the connection is then not reused.
    var hasLeftover: Bool { start < buffer.count }

    /// Reads one more batch from the socket; false at end of stream.
    private mutating func fill() throws(SocketFailure) -> Bool {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > Self.readSize {
            buffer.removeFirst(start)
            start = 0
        }
        let oldCount = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: Self.readSize))
        let fd = fd, deadline = deadline
        // withUnsafeMutableBytes rethrows as `any Error`; a Result keeps the failure typed.
        let result = buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SocketFailure) -> Int in
                try LoopbackSocket.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[oldCount...]), until: deadline)
            }
        }
        let count: Int
        switch result {
        case .success(let value): count = value
        case .failure(let error):
            buffer.removeLast(Self.readSize)
            throw error
        }
        buffer.removeLast(Self.readSize - count)
        received += count
        return count > 0
    }

    /// Reads the next response head, skipping interim 1xx answers (100 Continue).
    mutating func readHead() throws(SocketFailure) -> ResponseHead {
        while true {
            let head = try ResponseHead(readHeadBytes())
            if head.status == 101 { throw .malformed("unexpected 101 Switching Protocols") }
            if (100..<200).contains(head.status) { continue }
            return head
        }
    }

    private mutating func readHeadBytes() throws(SocketFailure) -> ArraySlice<UInt8> {
        var scanned = start
        while true {
            // The blank line ending the head; bare LF line ends are tolerated as most clients do.
            var index = scanned
            while index < buffer.count {
                if buffer[index] == 0x0A {
                    let next = index + 1
                    if next < buffer.count && buffer[next] == 0x0A {
                        let head = buffer[start..<index]
                        start = next + 1
                        return head
                    }
                    if next + 1 < buffer.count && buffer[next] == 0x0D && buffer[next + 1] == 0x0A {
                        let head = buffer[start..<index]
                        start = next + 2
                        return head
                    }
                }
                index += 1
            }
            // Rescan the last two bytes: the terminator may straddle two reads.
            // (as an offset from `start`, which fill() may move when it compacts the buffer).
            let offset = max(0, buffer.count - 2 - start)
            guard buffer.count - start <= Self.maxHeadBytes else { throw .malformed("response head over 64 KiB") }
            guard try fill() else {
                if buffer.count == start { throw .closed }
                throw .malformed("response ended inside its head")
            }
            scanned = start + offset
        }
    }

    /// Reads the body `framing` describes, telling `progress` the running total as bytes arrive.
    mutating func readBody(_ framing: BodyFraming, progress: (Int) -> Void) throws(SocketFailure) -> Data {
        var body = Data()
        switch framing {
        case .none:
            break
        case .length(let length):
            body.reserveCapacity(length)
            try copy(length, into: &body, progress: progress)
        case .chunked:
            while true {
                let line = try readLine()
                let sizeText = line.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces) ?? ""
                guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformed("chunk size \"\(line.prefix(40))\"") }
                if size == 0 { break }
                try copy(size, into: &body, progress: progress)
                guard try readLine().isEmpty else { throw .malformed("no line end after a chunk") }
            }
            // Trailer fields, ignored, up to the blank line.
            while try !readLine().isEmpty {}
        case .untilClose:
            while true {
                if start < buffer.count {
                    body.append(contentsOf: buffer[start...])
                    start = buffer.count
                    progress(body.count)
                }
                guard try fill() else { break }
            }
        }
        return body
    }

    private mutating func copy(_ count: Int, into body: inout Data, progress: (Int) -> Void) throws(SocketFailure) {
        var needed = count
        while needed > 0 {
            if start == buffer.count { guard try fill() else { throw .closed } }
            let take = min(needed, buffer.count - start)
            body.append(contentsOf: buffer[start..<(start + take)])
            start += take
            needed -= take
            progress(body.count)
        }
    }

    /// One line without its CRLF (or LF), for chunked framing.
    private mutating func readLine() throws(SocketFailure) -> String {
        var scanned = start
        while true {
            if let newline = buffer[scanned...].firstIndex(of: 0x0A) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                let line = String(decoding: buffer[start..<end], as: UTF8.self)
                start = newline + 1
                return line
            }
            let offset = buffer.count - start  // fill() may move `start` when it compacts
            guard offset <= Self.maxChunkLine else { throw .malformed("chunk line over 4 KiB") }
            guard try fill() else { throw .closed }
            scanned = start + offset
        }
    }
}
