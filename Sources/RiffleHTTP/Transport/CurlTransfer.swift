import CCurl
import Foundation
import Synchronization

/// One request on its way through libcurl: the easy handle, and the answer as it arrives.
///
/// `@unchecked Sendable`: made on the caller's thread and then handed to the engine's thread through
/// the engine's lock; from there on every mutable field is touched only on that thread (libcurl calls
/// the callbacks there too), except `cancelled`, which is atomic, and `handoff`, behind its lock.
final class CurlTransfer: @unchecked Sendable {
    let request: HTTPRequest
    let context: TransferContext
    let cancelled = Atomic<Bool>(false)
    /// The waiting task and the outcome meet here: a transfer cancelled before its task even waits
    /// (the cancellation handler runs first) finishes with no one to resume yet.
    private let handoff = Mutex<(waiting: CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>?,
                                 outcome: Result<HTTPResponse, RiffleError>?)>((nil, nil))

    /// Set on the engine's thread when the transfer got its place (it then holds one until it finishes).
    var submitted = false
    private(set) var isFinished = false
    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutableRawPointer?
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: 256)
    private var limits = (body: 0, header: 0)
    private var stallTimeout: Duration = .zero
    /// When bytes last moved, once the answer has begun.
    private var lastActivity: ContinuousClock.Instant?

    // The answer as it arrives.
    private var status = 0
    private var headers: [String: String] = [:]
    private var lastHeader: String?
    private var headerBytes = 0
    private var body = Data()
    private var bodyStarted = false
    private var abortReason: RiffleError?
    private var reported = (upload: Int64(0), download: Int64(0))

    init(request: HTTPRequest, context: TransferContext) {
        self.request = request
        self.context = context
        errorText.initialize(to: 0)
    }

    deinit {
        cleanUp()
        errorText.deallocate()
    }

    /// Waits for the outcome (at once when there is one already).
    func wait(_ continuation: CheckedContinuation<Result<HTTPResponse, RiffleError>, Never>) {
        let ready = handoff.withLock { handoff -> Result<HTTPResponse, RiffleError>? in
            if let outcome = handoff.outcome { return outcome }
            handoff.waiting = continuation
            return nil
        }
        if let ready { continuation.resume(returning: ready) }
    }

    /// Records the outcome once and frees libcurl's handle; returns what resumes the waiting task (nil
    /// when it is not waiting yet: it then finds the outcome when it does).
    func finish(_ result: Result<HTTPResponse, RiffleError>) -> (() -> Void)? {
        guard !isFinished else { return nil }
        isFinished = true
        cleanUp()
        if case .success(let response) = result { reportFinalProgress(response) }
        let waiting = handoff.withLock { handoff in
            defer { handoff.waiting = nil }
            if handoff.waiting == nil { handoff.outcome = result }
            return handoff.waiting
        }
        return waiting.map { waiting in { waiting.resume(returning: result) } }
    }

    private func cleanUp() {
        if let easy { rc_easy_cleanup(easy) }
        easy = nil
        if let headerList { rc_slist_free_all(headerList) }
        headerList = nil
    }

    // MARK: Setting up

    /// The easy handle for this request, every option set (the first one libcurl refuses is the error).
    func makeHandle(_ configuration: CurlTransport.Configuration, version: CurlVersion) -> Result<UnsafeMutableRawPointer, RiffleError> {
        guard let easy = rc_easy_init() else { return .failure(.transport("curl_easy_init failed")) }
        self.easy = easy
        do throws(RiffleError) {
            try setOptions(CurlOptions(easy: easy, version: version), configuration)
            return .success(easy)
        } catch {
            return .failure(error)
        }
    }

    private func setOptions(_ options: CurlOptions, _ configuration: CurlTransport.Configuration) throws(RiffleError) {
        limits = (configuration.maxBodySize, configuration.maxHeaderSize)
        let budget = request.timeout ?? configuration.timeout
        let context = Unmanaged.passUnretained(self).toOpaque()

        try options.set(RC_CURLOPT_URL, request.url.absoluteString)
        try options.limitProtocols()
        try options.set(RC_CURLOPT_FOLLOWLOCATION, 0)
        try options.set(RC_CURLOPT_NOSIGNAL, 1)
        try options.set(RC_CURLOPT_TCP_KEEPALIVE, 1)
        try options.set(RC_CURLOPT_HTTP_VERSION, RC_CURL_HTTP_VERSION_2TLS)  // HTTP/2 over TLS when offered, else 1.1
        // Over TLS, a second request to a host waits to learn whether the first connection multiplexes
        // (HTTP/2) rather than opening another; plain HTTP/1.1 has nothing to wait for.
        if request.url.scheme?.lowercased() == "https" { try options.set(RC_CURLOPT_PIPEWAIT, 1) }
        try options.set(RC_CURLOPT_TIMEOUT_MS, max(1, budget.milliseconds))
        try options.set(RC_CURLOPT_CONNECTTIMEOUT_MS, max(1, configuration.connectTimeout.milliseconds))
        try options.set(RC_CURLOPT_LOW_SPEED_LIMIT, 1)
        stallTimeout = configuration.stallTimeout
        // libcurl's own low-speed check averages over several seconds; the progress callback below
        // ends a stalled answer on time. The check stays on, later, because its timer is what calls the
        // progress callback about once a second while nothing moves.
        try options.set(RC_CURLOPT_LOW_SPEED_TIME, max(1, stallTimeout.milliseconds / 1000) + 10)
        try options.set(RC_CURLOPT_MAXFILESIZE_LARGE, Int64(configuration.maxBodySize))
        try options.set(RC_CURLOPT_ERRORBUFFER, pointer: errorText)
        if let caFile = configuration.caFile { try options.set(RC_CURLOPT_CAINFO, caFile) }

        try options.set(RC_CURLOPT_WRITEFUNCTION, curlReceiveBody)
        try options.set(RC_CURLOPT_WRITEDATA, pointer: context)
        try options.set(RC_CURLOPT_HEADERFUNCTION, curlReceiveHeader)
        try options.set(RC_CURLOPT_HEADERDATA, pointer: context)
        try options.set(RC_CURLOPT_NOPROGRESS, 0)
        try options.set(RC_CURLOPT_XFERINFOFUNCTION, curlProgress)
        try options.set(RC_CURLOPT_XFERINFODATA, pointer: context)

        switch request.method {
        case .get: try options.set(RC_CURLOPT_HTTPGET, 1)
        case .head: try options.set(RC_CURLOPT_NOBODY, 1)
        default: break
        }
        if let body = request.body, request.method != .get, request.method != .head {
            try options.set(RC_CURLOPT_POST, 1)
            try options.set(RC_CURLOPT_POSTFIELDSIZE_LARGE, Int64(body.count))
            // COPYPOSTFIELDS copies the bytes: nothing of ours has to outlive this call.
            let empty = UnsafeRawPointer(errorText)  // any valid address for an empty body: no byte is read
            try body.withUnsafeBytes { bytes in
                Result { () throws(RiffleError) in try options.set(RC_CURLOPT_COPYPOSTFIELDS, pointer: bytes.baseAddress ?? empty) }
            }.get()
        } else if request.method == .post {
            try options.set(RC_CURLOPT_POST, 1)
            try options.set(RC_CURLOPT_POSTFIELDSIZE_LARGE, 0)
        }
        if request.method != .get, request.method != .head, request.method != .post {
            try options.set(RC_CURLOPT_CUSTOMREQUEST, request.method.rawValue)
        }

        // Header names as written. Accept-Encoding goes to libcurl's own option so it decodes the body.
        try options.set(RC_CURLOPT_ACCEPT_ENCODING, request.headers["Accept-Encoding"] ?? "")
        var lines: [String] = []
        for field in request.headers where !field.name.caseInsensitiveEquals("Accept-Encoding") {
            lines.append(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        if !request.headers.contains("User-Agent") { try options.set(RC_CURLOPT_USERAGENT, configuration.userAgent) }
        // No "Expect: 100-continue" wait before a larger body: most servers never answer it.
        if !request.headers.contains("Expect") { lines.append("Expect:") }
        for line in lines { headerList = line.withCString { rc_slist_append(headerList, $0) } }
        try options.set(RC_CURLOPT_HTTPHEADER, pointer: headerList)
    }

    // MARK: Callbacks (the engine's thread)

    fileprivate func receiveHeader(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        headerBytes += bytes.count
        lastActivity = .now
        guard headerBytes <= limits.header else {
            abortReason = .tooLarge(what: "response headers", limit: limits.header)
            return 0
        }
        // Trailer fields after a chunked body are not part of the head.
        if bodyStarted { return bytes.count }
        var end = bytes.count
        while end > 0, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
        let line = UnsafeBufferPointer(rebasing: bytes[..<end])
        if line.count >= 5, line.starts(with: "HTTP/".utf8) {
            // A new head (after a 1xx, or the first): its status replaces what came before.
            status = Self.status(in: line) ?? 0
            headers = [:]
            lastHeader = nil
        } else if let first = line.first, first == 32 || first == 9, let name = lastHeader {
            // An obsolete folded continuation line.
            headers[name, default: ""] += " " + Self.fieldValue(line[...])
        } else if let colon = line.firstIndex(of: 58) {
            let name = Self.fieldName(line[..<colon])
            let value = Self.fieldValue(line[(colon + 1)...])
            if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
            lastHeader = name
        }
        return bytes.count
    }

    /// A field's name, its ASCII letters lowercased (names are tokens: other bytes are kept as sent).
    /// Bytes, not `String.lowercased()`: each answer's head passes here before its body is read.
    static func fieldName(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for (i, byte) in bytes.enumerated() { buffer[i] = (65...90).contains(byte) ? byte + 32 : byte }
            return bytes.count
        }
    }

    /// A field's value without the spaces and tabs around it (HTTP's optional white space, RFC 9110
    /// §5.5: only those two; a no-break space is part of the value), as UTF-8 with invalid bytes
    /// replaced.
    static func fieldValue(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        var start = bytes.startIndex, end = bytes.endIndex
        while start < end, bytes[start] == 32 || bytes[start] == 9 { start += 1 }
        while end > start, bytes[end - 1] == 32 || bytes[end - 1] == 9 { end -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)
    }

    fileprivate func receiveBody(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        if !bodyStarted {
            bodyStarted = true
            var declared: Int64 = -1
            if let easy, rc_easy_getinfo_offset(easy, RC_CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared) == 0, declared > 0 {
                body.reserveCapacity(Int(min(declared, Int64(min(limits.body, 16 * 1024 * 1024)))))
            }
        }
        guard body.count + bytes.count <= limits.body else {
            abortReason = .tooLarge(what: "response body", limit: limits.body)
            return 0
        }
        body.append(bytes)
        return bytes.count
    }

    /// libcurl's progress callback: reports progress, and ends the transfer when it was cancelled or
    /// the answer, once begun, stalled (no byte for `stallTimeout`).
    fileprivate func progress(downloadTotal: Int64, downloaded: Int64, uploadTotal: Int64, uploaded: Int64) -> Int32 {
        if cancelled.load(ordering: .relaxed) { return 1 }
        let now = ContinuousClock.now
        if uploaded > reported.upload {
            reported.upload = uploaded
            context.progress?(TransferProgress(direction: .upload, completed: uploaded, expected: uploadTotal > 0 ? uploadTotal : nil))
        }
        if downloaded > reported.download {
            reported.download = downloaded
            lastActivity = now
            context.progress?(TransferProgress(direction: .download, completed: downloaded, expected: downloadTotal > 0 ? downloadTotal : nil))
        }
        if let lastActivity, now - lastActivity >= stallTimeout {
            let host = CurlTransport.hostLabel(request.url), seconds = max(1, stallTimeout.milliseconds / 1000)
            abortReason = downloaded > 0
                ? .cutShort(host: host, received: Int(downloaded), expected: downloadTotal > 0 ? Int(downloadTotal) : nil,
                            ending: .stalled(seconds: seconds))
                : .stalled(host: host, seconds: seconds)
            return 1
        }
        return 0
    }

    /// The last step of each direction, so a reader always sees the totals (libcurl may finish between
    /// two progress calls).
    private func reportFinalProgress(_ response: HTTPResponse) {
        guard let report = context.progress else { return }
        if let sent = request.body.map({ Int64($0.count) }), sent > reported.upload {
            reported.upload = sent
            report(TransferProgress(direction: .upload, completed: sent, expected: sent))
        }
        let received = Int64(response.body.count)
        if received > reported.download || received == 0 {
            reported.download = received
            report(TransferProgress(direction: .download, completed: received, expected: received))
        }
    }

    // MARK: The outcome

    /// The answer, or the error `code` (a CURLcode) stands for.
    func result(code: Int32) -> Result<HTTPResponse, RiffleError> {
        if code == 0 {
            var responseCode = 0
            if status == 0, let easy, rc_easy_getinfo_long(easy, RC_CURLINFO_RESPONSE_CODE, &responseCode) == 0 { status = responseCode }
            return .success(HTTPResponse(status: status, headers: headers, body: body, url: request.url))
        }
        if let abortReason { return .failure(abortReason) }
        var osError = 0
        if let easy { _ = rc_easy_getinfo_long(easy, RC_CURLINFO_OS_ERRNO, &osError) }
        switch code {
        case Int32(RC_CURLE_FILESIZE_EXCEEDED): return .failure(.tooLarge(what: "response body", limit: limits.body))
        case Int32(RC_CURLE_TOO_LARGE): return .failure(.tooLarge(what: "response headers", limit: limits.header))
        // libcurl before 8.6 refuses a header line over its own 100 KiB (CURL_MAX_HTTP_HEADER) with
        // CURLE_OUT_OF_MEMORY and no words: a header too large, not a machine out of memory.
        case 27 where headerBytes > 0 && !bodyStarted: return .failure(.tooLarge(what: "response headers", limit: 100 * 1024))
        // libcurl's decoders fail with CURLE_WRITE_ERROR, not CURLE_BAD_CONTENT_ENCODING, on bytes after the
        // end of a compressed stream (two gzip members one after the other): the server's answer, not a
        // failure to write here (our own refusals return above, with their reason).
        case 23 where headers["content-encoding"].map({ !$0.isEmpty && $0.lowercased() != "identity" }) == true:
            return .failure(.badResponse(host: CurlTransport.hostLabel(request.url), reason: RiffleError.undecodableReason))
        // Something other than HTTP on a connection made for this request (a port serving SSH or a
        // database, a status line that is no status): the server's answer, and a retry gets it again. On
        // a reused connection the same code is what an earlier, over-long answer left there: a lost
        // connection (`RiffleError.curl`), which a fresh one cures.
        case 1 where connectionsMade() > 0:
            return .failure(.badResponse(host: CurlTransport.hostLabel(request.url), reason: "not an HTTP answer"))
        // Closed before the length it declared (or before a chunked body's last chunk), or out of time
        // with part of the body here: the answer says how far it got.
        case 18 where status != 0, 28 where bodyStarted:
            var received: Int64 = 0, declared: Int64 = -1
            if let easy {
                _ = rc_easy_getinfo_offset(easy, RC_CURLINFO_SIZE_DOWNLOAD_T, &received)
                _ = rc_easy_getinfo_offset(easy, RC_CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &declared)
            }
            return .failure(.cutShort(host: CurlTransport.hostLabel(request.url), received: Int(received),
                                      expected: declared > 0 ? Int(declared) : nil, ending: code == 18 ? .closed : .timedOut))
        default:
            // A timeout with nothing of the request sent: the connection was never made.
            var sentBytes = 1
            if code == 28, let easy { _ = rc_easy_getinfo_long(easy, RC_CURLINFO_REQUEST_SIZE, &sentBytes) }
            return .failure(RiffleError.curl(code: code, osError: Int32(osError), detail: String(cString: errorText), url: request.url,
                                             sent: sentBytes > 0))
        }
    }

    /// How many connections libcurl opened for this transfer (0: it reused one).
    private func connectionsMade() -> Int {
        var count = 0
        if let easy { _ = rc_easy_getinfo_long(easy, RC_CURLINFO_NUM_CONNECTS, &count) }
        return count
    }

    private static func status(in line: UnsafeBufferPointer<UInt8>) -> Int? {
        // "HTTP/1.1 200 OK", "HTTP/2 404"
        guard let space = line.firstIndex(of: 32) else { return nil }
        var value = 0, digits = 0
        for byte in line[(space + 1)...] {
            guard (48...57).contains(byte), digits < 3 else { break }
            value = value * 10 + Int(byte - 48)
            digits += 1
        }
        return digits == 3 ? value : nil
    }
}

// C callbacks: the transfer comes back through the `*DATA` pointer, unretained (the engine keeps it).

private let curlReceiveBody: rc_data_callback = { buffer, size, count, context in
    guard let context, let buffer else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: size * count)
    return transfer.receiveBody(bytes)
}

private let curlReceiveHeader: rc_data_callback = { buffer, size, count, context in
    guard let context, let buffer else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(buffer).assumingMemoryBound(to: UInt8.self), count: size * count)
    return transfer.receiveHeader(bytes)
}

private let curlProgress: rc_progress_callback = { context, downloadTotal, downloaded, uploadTotal, uploaded in
    guard let context else { return 0 }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(context).takeUnretainedValue()
    return transfer.progress(downloadTotal: downloadTotal, downloaded: downloaded, uploadTotal: uploadTotal, uploaded: uploaded)
}

extension Duration {
    /// Whole milliseconds, rounded up, saturating.
    var milliseconds: Int {
        let (seconds, attoseconds) = components
        guard seconds < Int64(Int.max / 1000 - 1) else { return Int.max / 2 }
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }
}
