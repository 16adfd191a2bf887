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

    /// Parses the bytes before the blank line; `.malformed` naming what was wrong. Works on bytes, not
    /// Characters: "\r\n" is one grapheme that a split on "\n" would not see, and this runs between
    /// every answer and the next request.
    init(_ bytes: ArraySlice<UInt8>) throws(SocketFailure) {
        var lines = Self.lines(bytes)
        let statusLine = lines.isEmpty ? bytes[bytes.startIndex..<bytes.startIndex] : lines.removeFirst()
        guard let (minor, status) = Self.statusLine(statusLine) else {
            throw .malformed("status line \"\(String(decoding: statusLine, as: UTF8.self).prefix(60))\"")
        }
        minorVersion = minor
        self.status = status
        var headers: [String: String] = [:]
        var lastName: String?
        for line in lines where !line.isEmpty {
            if line.first == 0x20 || line.first == 0x09, let name = lastName {
                // Obsolete line folding: a continuation of the previous value.
                headers[name, default: ""] += " " + HTTPText.trimmed(line)
                continue
            }
            guard let colon = line.firstIndex(of: 0x3A), colon != line.startIndex else {
                throw .malformed("header line \"\(String(decoding: line, as: UTF8.self).prefix(60))\"")
            }
            let name = String(decoding: line[..<colon].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
            let value = HTTPText.trimmed(line[(colon + 1)...])
            if let earlier = headers[name] { headers[name] = earlier + ", " + value } else { headers[name] = value }
            lastName = name
        }
        self.headers = headers
    }

    /// The head's lines without their line ends (CRLF or a bare LF).
    private static func lines(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var lineStart = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            lines.append(bytes[lineStart..<(index > lineStart && bytes[index - 1] == 0x0D ? index - 1 : index)])
            lineStart = index + 1
        }
        let last = bytes[lineStart...]
        lines.append(last.last == 0x0D ? last.dropLast() : last)
        return lines
    }

    /// "HTTP/1.1 200 OK": a version, one space, three digits, then a space and a reason or nothing.
    private static func statusLine(_ line: ArraySlice<UInt8>) -> (minor: Int, status: Int)? {
        let prefix = Array("HTTP/1.".utf8)
        guard line.starts(with: prefix) else { return nil }
        let rest = line.dropFirst(prefix.count)
        guard let space = rest.firstIndex(of: 0x20), space > rest.startIndex,
              rest[..<space].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), space - rest.startIndex <= 9 else { return nil }
        let minor = rest[..<space].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let code = rest[(space + 1)...].prefix { $0 != 0x20 }
        guard code.count == 3, code.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        let status = code.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return status >= 100 ? (minor, status) : nil
    }

    /// Whether the connection may carry another request after this response.
    var allowsKeepAlive: Bool {
        let tokens = (headers["connection"] ?? "").lowercased().split(separator: ",").map(HTTPText.trimmed)
        return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
    }
}

/// Text helpers for header values, without Foundation's Unicode-aware (and slower) trimming.
enum HTTPText {
    /// `text` without the optional whitespace HTTP allows around values: spaces and tabs.
    static func trimmed(_ text: Substring) -> String {
        trimmed(text.utf8)
    }

    static func trimmed<Bytes: BidirectionalCollection<UInt8>>(_ bytes: Bytes) -> String {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start = bytes.index(after: start) }
        while start < end, bytes[bytes.index(before: end)] == 0x20 || bytes[bytes.index(before: end)] == 0x09 {
            end = bytes.index(before: end)
        }
        return String(decoding: bytes[start..<end], as: UTF8.self)
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
            let last = coding.split(separator: ",").last.map(HTTPText.trimmed)?.lowercased()
            self = last == "chunked" ? .chunked : .untilClose
        } else if let text = head.headers["content-length"] {
            // Repeated identical values arrive joined ("12, 12"); differing ones are an error.
            let values = Set(text.split(separator: ",").map(HTTPText.trimmed))
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
    /// Bytes read: `buffer[start..<end]` is not consumed yet; the rest is room for the next read,
    /// allocated once and never zeroed again.
    private var buffer = [UInt8](repeating: 0, count: HTTP1Exchange.readSize)
    private var start = 0
    private var end = 0
    /// Response bytes received so far; zero means the server never began to answer.
    private(set) var received = 0

    init(fd: Int32, deadline: ContinuousClock.Instant) {
        self.fd = fd
        self.deadline = deadline
    }

    /// Bytes received beyond the response (a misbehaving server); the connection is then not reused.
    var hasLeftover: Bool { start < end }

    /// Reads one more batch from the socket after the unconsumed bytes; false at end of stream.
    private mutating func fill() throws(SocketFailure) -> Bool {
        if start == end {
            start = 0
            end = 0
        } else if end == buffer.count {
            if start > 0 {
                // Move what is left to the front to make room.
                buffer.withUnsafeMutableBytes { raw in
                    _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
                }
                end -= start
                start = 0
            } else {
                buffer.append(contentsOf: repeatElement(0, count: Self.readSize))
            }
        }
        let fd = fd, deadline = deadline, tail = end
        let count = try receive(fd, deadline) { raw in UnsafeMutableRawBufferPointer(rebasing: raw[tail...]) }
        self.end += count
        return count > 0
    }

    /// recv into the part of `buffer` that `region` picks; withUnsafeMutableBytes rethrows as
    /// `any Error`, so a Result keeps the failure typed.
    private mutating func receive(_ fd: Int32, _ deadline: ContinuousClock.Instant,
                                  _ region: (UnsafeMutableRawBufferPointer) -> UnsafeMutableRawBufferPointer) throws(SocketFailure) -> Int {
        let count = try buffer.withUnsafeMutableBytes { raw in
            Result { () throws(SocketFailure) -> Int in try LoopbackSocket.receive(fd, into: region(raw), until: deadline) }
        }.get()
        received += count
        return count
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
            while index < end {
                if buffer[index] == 0x0A {
                    let next = index + 1
                    if next < end && buffer[next] == 0x0A {
                        let head = buffer[start..<index]
                        start = next + 1
                        return head
                    }
                    if next + 1 < end && buffer[next] == 0x0D && buffer[next + 1] == 0x0A {
                        let head = buffer[start..<index]
                        start = next + 2
                        return head
                    }
                }
                index += 1
            }
            // Rescan the last two bytes: the terminator may straddle two reads.
            // (as an offset from `start`, which fill() may move when it compacts the buffer).
            let offset = max(0, end - 2 - start)
            guard end - start <= Self.maxHeadBytes else { throw .malformed("response head over 64 KiB") }
            guard try fill() else {
                if end == start { throw .closed }
                throw .malformed("response ended inside its head")
            }
            scanned = start + offset
        }
    }

    /// Reads the body `framing` describes, telling `progress` the running total as bytes arrive.
    mutating func readBody(_ framing: BodyFraming, progress: (Int) -> Void) throws(SocketFailure) -> Data {
        switch framing {
        case .none:
            return Data()
        case .length(let length):
            return try readBody(length: length, progress: progress)
        case .chunked:
            var body = Data()
            while true {
                let line = try readLine()
                let sizeText = line.split(separator: ";", maxSplits: 1).first.map(HTTPText.trimmed) ?? ""
                guard let size = Int(sizeText, radix: 16), size >= 0 else { throw .malformed("chunk size \"\(line.prefix(40))\"") }
                if size == 0 { break }
                try copy(size, into: &body, progress: progress)
                guard try readLine().isEmpty else { throw .malformed("no line end after a chunk") }
            }
            // Trailer fields, ignored, up to the blank line.
            while try !readLine().isEmpty {}
            return body
        case .untilClose:
            var body = Data()
            while true {
                if start < end {
                    body.append(contentsOf: buffer[start..<end])
                    start = end
                    progress(body.count)
                }
                guard try fill() else { break }
            }
            return body
        }
    }

    /// A body of known length: what is already buffered, then read from the socket straight into the
    /// body's own storage, with no copy in between.
    private mutating func readBody(length: Int, progress: (Int) -> Void) throws(SocketFailure) -> Data {
        guard length > 0 else { return Data() }
        let buffered = min(length, end - start)
        // Up to what the body needs; anything beyond stays buffered and counts as a leftover.
        // Uninitialized storage: every byte is written below before the body is returned.
        guard let storage = malloc(length) else { preconditionFailure("out of memory for a \(length)-byte body") }
        var body = Data(bytesNoCopy: storage, count: length, deallocator: .free)
        body.withUnsafeMutableBytes { raw in
            buffer.withUnsafeBytes { bytes in raw.baseAddress!.copyMemory(from: bytes.baseAddress! + start, byteCount: buffered) }
        }
        start += buffered
        if buffered > 0 { progress(buffered) }
        var filled = buffered
        let fd = fd, deadline = deadline
        while filled < length {
            let offset = filled
            let count = try body.withUnsafeMutableBytes { raw in
                Result { () throws(SocketFailure) -> Int in
                    try LoopbackSocket.receive(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[offset...]), until: deadline)
                }
            }.get()
            guard count > 0 else { throw .closed }
            received += count
            filled += count
            progress(filled)
        }
        return body
    }

    private mutating func copy(_ count: Int, into body: inout Data, progress: (Int) -> Void) throws(SocketFailure) {
        var needed = count
        while needed > 0 {
            if start == end { guard try fill() else { throw .closed } }
            let take = min(needed, end - start)
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
            if let newline = buffer[scanned..<end].firstIndex(of: 0x0A) {
                var lineEnd = newline
                if lineEnd > start && buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let line = String(decoding: buffer[start..<lineEnd], as: UTF8.self)
                start = newline + 1
                return line
            }
            let offset = end - start  // fill() may move `start` when it compacts
            guard offset <= Self.maxChunkLine else { throw .malformed("chunk line over 4 KiB") }
            guard try fill() else { throw .closed }
            scanned = start + offset
        }
    }
}
