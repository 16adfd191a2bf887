import Foundation
import Synchronization

/// Appends one line per request to a file: method, URL without credentials, status (or the error),
/// bytes, milliseconds and whether the answer came from the cache or the network.
///
/// ```
/// GET https://api.example.com/items?page=2 200 5120B 84ms network
/// ```
///
/// `Client.Configuration` adds one by default when `RIFFLE_LOG` names a file.
public final class RequestLogPlugin: ClientPlugin {
    private let path: String
    // Serialises appends so lines from concurrent requests never interleave.
    private let lock = Mutex(())

    /// Logs to the file at `path`, creating it if needed.
    public init(path: String) { self.path = path }

    /// A plugin logging to `$RIFFLE_LOG`, or nil when it is unset or empty.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> RequestLogPlugin? {
        guard let path = environment["RIFFLE_LOG"], !path.isEmpty else { return nil }
        return RequestLogPlugin(path: path)
    }

    /// Logs the answer: status, bytes, time and whether it came from the cache.
    public func didReceive(_ response: CachedResponse, for call: ClientCall, duration: Duration) {
        let source = response.source == .network ? "network" : "cache"
        write(call.request, outcome: "\(response.response.status) \(response.response.body.count)B", duration: duration, source: source)
    }

    /// Logs the retry and its delay.
    public func willRetry(_ call: ClientCall, after delay: Duration, because failure: RiffleError) {
        write(call.request, outcome: "retry in \(delay.milliseconds)ms (\(failure))", duration: .zero, source: "network")
    }

    /// Logs the failure in one line.
    public func didFail(_ error: RiffleError, for call: ClientCall, duration: Duration) {
        // A call that failed before sending has no request and reached nothing.
        write(call.request, outcome: "error(\(error)) 0B", duration: duration, source: call.request == nil ? "-" : "network")
    }

    private func write(_ request: HTTPRequest?, outcome: String, duration: Duration, source: String) {
        let ms = duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000
        let line = "\(request?.method.rawValue ?? "-") \(request?.redactedURL ?? "-") \(outcome) \(ms)ms \(source)\n"
        lock.withLock { _ in
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
            guard let handle = FileHandle(forWritingAtPath: path) else { return }
            defer { try? handle.close() }
            _ = try? handle.seekToEnd()
            try? handle.write(contentsOf: Data(line.utf8))
        }
    }
}
