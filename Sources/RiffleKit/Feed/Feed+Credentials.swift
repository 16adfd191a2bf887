import Foundation

extension Feed {
    /// The feed's headers with `${NAME}` replaced by the environment's values; done per request so the
    /// values never reach a file.
    ///
    /// `${NAME}` must be set; `${NAME:-}` may be unset, in which case the whole header is left out (so a
    /// preset can send a token only when the user has one).
    /// - Throws: `RiffleError.missingEnvironment` naming the variable and the header, never a value.
    public func expandedHeaders(environment: [String: String]) throws(RiffleError) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            if let expanded = try Self.expand(value, usedBy: "\(name) header", environment: environment) { result[name] = expanded }
        }
        return result
    }

    /// The environment variables `value` names, in order (`Bearer ${TOKEN}` → `["TOKEN"]`).
    public static func variables(in value: String) -> [(name: String, optional: Bool)] {
        var found: [(String, Bool)] = []
        var rest = Substring(value)
        while let start = rest.range(of: "${"), let end = rest[start.upperBound...].firstIndex(of: "}") {
            let inside = rest[start.upperBound..<end]
            found.append(inside.hasSuffix(":-") ? (String(inside.dropLast(2)), true) : (String(inside), false))
            rest = rest[rest.index(after: end)...]
        }
        return found
    }

    /// `value` expanded, or nil when it names an optional variable that is unset.
    static func expand(_ value: String, usedBy: String, environment: [String: String]) throws(RiffleError) -> String? {
        var result = value
        for (name, optional) in variables(in: value) {
            let reference = optional ? "${\(name):-}" : "${\(name)}"
            guard let replacement = environment[name], !replacement.isEmpty else {
                if optional { return nil }
                throw .missingEnvironment(variable: name, usedBy: usedBy)
            }
            result = result.replacingOccurrences(of: reference, with: replacement)
        }
        return result
    }

    /// Whether any `query` value names an environment variable; most feeds' do not, and their URLs
    /// are sent as they are.
    public var queryUsesEnvironment: Bool { query.values.contains { !Self.variables(in: $0).isEmpty } }

    /// Throws `RiffleError.missingEnvironment` when a `query` value names a required variable that is
    /// unset; the values are not kept. Cheaper than `expandedURL`: no URL is taken apart.
    public func checkQueryEnvironment(_ environment: [String: String]) throws(RiffleError) {
        for (name, value) in query where !Self.variables(in: value).isEmpty {
            _ = try Self.expand(value, usedBy: "\(name) query parameter", environment: environment)
        }
    }

    /// `url` as it is sent: each query parameter of the feed's `query` whose value names `${NAME}` gets
    /// the environment's value (and is left out when it names an unset `${NAME:-}`).
    ///
    /// Page URLs keep the reference (`api_key=${API_KEY}`) everywhere else, in cache keys, metadata
    /// files and the screen, so a key given this way is sent but never written. Done per request.
    /// - Throws: `RiffleError.missingEnvironment` naming the variable and the parameter, never a value.
    public func expandedURL(_ url: URL, environment: [String: String]) throws(RiffleError) -> URL {
        guard queryUsesEnvironment, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems else { return url }
        var sent: [URLQueryItem] = []
        for item in items {
            guard let reference = query[item.name.removingPercentEncoding ?? item.name], !Self.variables(in: reference).isEmpty,
                  item.value?.removingPercentEncoding == reference else {
                sent.append(item)
                continue
            }
            guard let value = try Self.expand(reference, usedBy: "\(item.name) query parameter", environment: environment) else { continue }
            sent.append(URLQueryItem(name: item.name, value: Self.percentEncoded(value)))
        }
        components.percentEncodedQueryItems = sent
        return components.url ?? url
    }

    /// `response` with every spelling of the feed's query secrets (raw and percent-encoded, in headers,
    /// body and URL) replaced by its `${NAME}` reference, before anything of it is stored: servers echo
    /// request parameters into `Link` headers and next-page links in bodies.
    public func redacted(_ response: HTTPResponse, environment: [String: String]) -> HTTPResponse {
        let secrets = querySecrets(environment: environment)
        guard !secrets.isEmpty else { return response }
        func redact(_ text: String, inURL: Bool = false) -> String {
            secrets.reduce(text) { $0.replacingOccurrences(of: $1.spelling, with: inURL ? $1.encodedReference : $1.reference) }
        }
        var redacted = response
        redacted.url = URL(string: redact(response.url.absoluteString, inURL: true)) ?? response.url
        for (name, value) in response.headers { redacted.headers[name] = redact(value) }
        for secret in secrets {
            let needle = Data(secret.spelling.utf8), replacement = Data(secret.reference.utf8)
            var searchFrom = redacted.body.startIndex
            while let found = redacted.body.range(of: needle, in: searchFrom..<redacted.body.endIndex) {
                redacted.body.replaceSubrange(found, with: replacement)
                searchFrom = found.lowerBound + replacement.count
            }
        }
        return redacted
    }

    /// What each query secret looks like on the wire, longest first, with what replaces it: the raw
    /// value by `${NAME}` (percent-encoded inside a URL), its percent-encoded spellings by the reference
    /// encoded the same way.
    private func querySecrets(environment: [String: String]) -> [(spelling: String, reference: String, encodedReference: String)] {
        var secrets: [(spelling: String, reference: String, encodedReference: String)] = []
        for reference in query.values where !Self.variables(in: reference).isEmpty {
            guard let value = try? Self.expand(reference, usedBy: "", environment: environment), !value.isEmpty else { continue }
            let encodedReference = Self.percentEncoded(reference)
            secrets.append((value, reference, encodedReference))
            let encodings = [Self.percentEncoded(value), value.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed)]
            for encoded in Set(encodings.compactMap { $0 }) where encoded != value {
                secrets.append((encoded, encodedReference, encodedReference))
            }
        }
        return secrets.sorted { $0.spelling.count > $1.spelling.count }
    }

    /// RFC 3986's unreserved characters: what `percentEncoded` leaves as it is.
    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// A query value with everything but RFC 3986's unreserved characters percent-encoded, so a value
    /// holding `&`, `=`, `+` or `#` stays one value.
    private static func percentEncoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }
}

extension Feed {
    /// Adds the feed's headers and fills in its `${NAME}` query values, as a credential: the client
    /// applies it only to requests for the feed's own origin.
    func credentialProcessor(environment: [String: String]) -> RequestProcessor {
        RequestProcessor(name: "feed \(name)", isCredential: true) { request throws(RiffleError) in
            for (name, value) in try expandedHeaders(environment: environment).sorted(by: { $0.key < $1.key }) {
                request.headers[name] = value
            }
            request.url = try expandedURL(request.url, environment: environment)
        }
    }

    /// Takes every spelling of the feed's query secrets out of each answer before it is checked or stored.
    func redactor(environment: [String: String]) -> ResponseProcessor {
        ResponseProcessor(name: "feed \(name) redaction") { response, _ in
            response = redacted(response, environment: environment)
        }
    }
}

extension Client {
    /// This client for `feed`'s pages: the same transport, retries, plugins and time budget, with the
    /// feed's origin as its base, `headers` on every request, the feed's credentials added for that origin
    /// only and its echoed secrets redacted from answers. The client's own credential processors are kept
    /// only when the feed is at one of its base origins.
    func forFeed(_ feed: Feed, headers: [String: String], environment: [String: String]) -> Client {
        let base = feed.url(forPage: 1)
        var derived = configuration
        derived.baseURL = base
        derived.secondaryBaseURL = nil
        derived.headers = configuration.headers.merging(headers) { $1 }
        let keepCredentials = trustedOrigins.contains { $0 == Origin(base) }
        derived.processors = configuration.processors.filter { keepCredentials || !$0.isCredential }
            + [feed.credentialProcessor(environment: environment)]
        derived.responseProcessors = configuration.responseProcessors + [feed.redactor(environment: environment)]
        derived.cache = nil
        return Client(derived, transport: transport)
    }
}
