import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A change the client applies to every request before sending it, in the order configured; an endpoint
/// can opt out with `processing = .none`.
///
/// ```swift
/// configuration.processors = [
///     .queryItem("version", "1.0.0"),
///     .header("Authorization", fromEnvironment: "API_TOKEN", prefix: "Bearer "),
/// ]
/// ```
public struct RequestProcessor: Sendable {
    /// A short name for logs.
    public var name: String
    let apply: @Sendable (inout URLRequest) throws(RiffleError) -> Void

    /// A processor running `apply` on each request.
    public init(name: String, apply: @escaping @Sendable (inout URLRequest) throws(RiffleError) -> Void) {
        self.name = name
        self.apply = apply
    }

    /// Appends `name=value` to the query (after the endpoint's own parameters).
    public static func queryItem(_ name: String, _ value: String) -> RequestProcessor {
        RequestProcessor(name: "query \(name)") { request in
            guard let url = request.url, var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return }
            parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: name, value: value)]
            request.url = parts.url ?? url
        }
    }

    /// Sets header `name` unless the request already has it.
    public static func header(_ name: String, _ value: String) -> RequestProcessor {
        RequestProcessor(name: "header \(name)") { request in
            if request.value(forHTTPHeaderField: name) == nil { request.setValue(value, forHTTPHeaderField: name) }
        }
    }

    /// Sets header `name` to `prefix` + the value of environment variable `variable`, read when the
    /// processor is made; when the variable is unset the header is left out.
    /// - Parameter environment: the variables to read (injectable for tests).
    public static func header(_ name: String, fromEnvironment variable: String, prefix: String = "",
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> RequestProcessor {
        guard let value = environment[variable], !value.isEmpty else {
            return RequestProcessor(name: "header \(name) ($\(variable) unset)") { _ in }
        }
        return header(name, prefix + value)
    }
}
