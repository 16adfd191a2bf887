import Foundation

/// A change the client applies to every request before sending it, in the order configured; an endpoint
/// can opt out with `processing = .none`.
///
/// ```swift
/// var configuration = Client.Configuration(baseURL: api)
/// configuration.processors = [
///     .queryItem("version", "1.0.0"),
///     .header("Authorization", fromEnvironment: "API_TOKEN", prefix: "Bearer "),
/// ]
/// ```
///
/// A processor that adds credentials (`isCredential`) runs only for requests to the client's base
/// URLs' origins, and the headers it sets are never carried to another origin by a redirect.
public struct RequestProcessor: Sendable {
    /// A short name for logs.
    public var name: String
    /// Whether what it adds is a credential.
    public var isCredential: Bool
    let apply: @Sendable (inout HTTPRequest) throws(RiffleError) -> Void

    /// A processor running `apply` on each request.
    public init(name: String, isCredential: Bool = false, apply: @escaping @Sendable (inout HTTPRequest) throws(RiffleError) -> Void) {
        self.name = name
        self.isCredential = isCredential
        self.apply = apply
    }

    /// Runs the processor on `request`; headers a credential processor sets are marked as credentials.
    func apply(to request: inout HTTPRequest) throws(RiffleError) {
        guard isCredential else { return try apply(&request) }
        let before = (headers: request.headers, url: request.url)
        try apply(&request)
        for field in request.headers where before.headers[field.name] != field.value { request.credentialHeaders.insert(field.name.lowercased()) }
        // The query is parsed only when the URL changed: unchanged, it has no item it lacked (a feed's
        // request runs three credential processors, most of which add nothing to most requests).
        guard request.url != before.url else { return }
        let query = Self.queryItems(before.url)
        for item in Self.queryItems(request.url) where !query.contains(item) { request.credentialQueryItems.insert(item.name) }
    }

    private static func queryItems(_ url: URL) -> [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }

    /// Appends `name=value` to the query (after the endpoint's own parameters).
    public static func queryItem(_ name: String, _ value: String, isCredential: Bool = false) -> RequestProcessor {
        RequestProcessor(name: "query \(name)", isCredential: isCredential) { request in
            guard var parts = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return }
            parts.appendQueryItems([URLQueryItem(name: name, value: value)])
            request.url = parts.url ?? request.url
        }
    }

    /// Sets header `name` unless the request already has it.
    public static func header(_ name: String, _ value: String, isCredential: Bool = false) -> RequestProcessor {
        RequestProcessor(name: "header \(name)", isCredential: isCredential) { request in
            if !request.headers.contains(name) { request.headers[name] = value }
        }
    }

    /// Sets credential header `name` to `prefix` + the value of environment variable `variable`, read
    /// when the processor is made; when the variable is unset the header is left out.
    /// - Parameters:
    ///   - name: the header's name, e.g. `Authorization`.
    ///   - variable: the environment variable holding the secret, e.g. `API_TOKEN`.
    ///   - prefix: text before the value, e.g. `Bearer `.
    ///   - environment: the variables to read (injectable for tests).
    public static func header(_ name: String, fromEnvironment variable: String, prefix: String = "",
                              environment: [String: String] = ProcessInfo.processInfo.environment) -> RequestProcessor {
        guard let value = environment[variable], !value.isEmpty else {
            return RequestProcessor(name: "header \(name) ($\(variable) unset)") { _ in }
        }
        return header(name, prefix + value, isCredential: true)
    }
}

/// A change the client applies to every answer as it arrives, before it is checked, cached or retried:
/// for example taking an echoed secret out before anything is stored.
public struct ResponseProcessor: Sendable {
    /// A short name for logs.
    public var name: String
    let apply: @Sendable (inout HTTPResponse, HTTPRequest) throws(RiffleError) -> Void

    /// A processor running `apply` on each answer, with the request it answers.
    public init(name: String, apply: @escaping @Sendable (inout HTTPResponse, HTTPRequest) throws(RiffleError) -> Void) {
        self.name = name
        self.apply = apply
    }
}
