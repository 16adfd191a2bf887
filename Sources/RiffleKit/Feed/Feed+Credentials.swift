import Foundation

extension Feed {
    /// The feed's headers with `${NAME}` replaced by the environment's values; done per request so the
    /// values never reach a file.
    ///
    /// `${NAME}` must be set; `${NAME:-}` may be unset, in which case the whole header is left out (so a
    /// preset can send a token only when the user has one).
    /// - Throws: `FeedError.missingEnvironment` naming the variable and the header, never a value;
    ///   `FeedError.unusableEnvironment` when a value holds a line break or NUL (it would split the request).
    public func expandedHeaders(environment: [String: String]) throws(FeedError) -> [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers {
            let usedBy = "\(name) header"
            for (variable, _) in Self.variables(in: value) where environment[variable]?.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) == true {
                throw .unusableEnvironment(variable: variable, usedBy: usedBy)
            }
            if let expanded = try Self.expand(value, usedBy: usedBy, environment: environment) { result[name] = expanded }
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
    static func expand(_ value: String, usedBy: String, environment: [String: String]) throws(FeedError) -> String? {
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

    /// Throws `FeedError.missingEnvironment` when a `query` value names a required variable that is
    /// unset; the values are not kept. Cheaper than `expandedURL`: no URL is taken apart.
    public func checkQueryEnvironment(_ environment: [String: String]) throws(FeedError) {
        for (name, value) in query where !Self.variables(in: value).isEmpty {
            _ = try Self.expand(value, usedBy: "\(name) query parameter", environment: environment)
        }
    }

    /// Whether `query` parameter `name` carries a credential: it is in `secrets`, or, when the feed
    /// gives no `secrets`, its name says so (`isCredentialName`).
    public func isSecretQueryParameter(_ name: String) -> Bool {
        Self.isSecretQueryParameter(name, secrets: secrets)
    }

    /// Whether a query parameter's name reads as a credential: one of its words (split at `_`, `-`,
    /// `.` and lower-to-upper case changes) is `key`, `apikey`, `token`, `secret`, `password`,
    /// `passwd`, `auth`, `sig`, `signature`, `appid`, `credential(s)`, `session` or `sid`
    /// (`api_key`, `api-key`, `access_token`, `appid`, `sig`; not `per_page`, `q`, `sort`).
    public static func isCredentialName(_ name: String) -> Bool {
        nameWords(name).contains { credentialWords.contains($0) }
    }

    /// Whether a query parameter's name is a credential's through and through, so its value is one
    /// whatever it looks like: a credential word (`isCredentialName`) with nothing beside it but words
    /// that say whose or what kind (`api`, `access`, `app`, `client`, `subscription`...): `key`,
    /// `api_key`, `apiKey`, `access_token`, `client_secret`, `sig`, `password`; not `sort_key`,
    /// `page_token` or `cache_key`, which name other things and hold words (`created_at`).
    static func isKeyName(_ name: String) -> Bool {
        let words = nameWords(name)
        return words.contains { credentialWords.contains($0) } && words.allSatisfy { credentialWords.contains($0) || keyQualifiers.contains($0) }
    }

    private static let keyQualifiers: Set = ["api", "access", "app", "application", "auth", "bearer", "client", "consumer", "dev",
                                             "developer", "oauth", "private", "refresh", "security", "subscription", "user", "x"]

    /// The words of a parameter's name, lowercased: split at `_`, `-`, `.` and lower-to-upper case changes.
    private static func nameWords(_ name: String) -> [String] {
        var words: [String] = []
        var word = ""
        var previousLower = false
        for character in name {
            let isBreak = character == "_" || character == "-" || character == "."
            if isBreak || (character.isUppercase && previousLower) {
                if !word.isEmpty { words.append(word) }
                word = ""
            }
            if !isBreak { word += character.lowercased() }
            previousLower = character.isLowercase || character.isNumber
        }
        if !word.isEmpty { words.append(word) }
        return words
    }

    private static let credentialWords: Set = ["key", "apikey", "token", "secret", "password", "passwd", "auth", "sig",
                                               "signature", "appid", "credential", "credentials", "session", "sid"]

    /// `url` as it is sent: each query parameter of the feed's `query` whose value names `${NAME}` gets
    /// the environment's value (and is left out when it names an unset `${NAME:-}`).
    ///
    /// Page URLs keep the reference (`api_key=${API_KEY}`) everywhere else, in metadata files and on
    /// the screen, so a key given this way is sent but never written. Done per request.
    /// - Parameters:
    ///   - url: a page URL of this feed.
    ///   - environment: where `${NAME}` values come from.
    ///   - secret: only the parameters that are credentials (true), only the others (false), or all (nil).
    /// - Throws: `FeedError.missingEnvironment` naming the variable and the parameter, never a value.
    public func expandedURL(_ url: URL, environment: [String: String], secret: Bool? = nil) throws(FeedError) -> URL {
        guard queryUsesEnvironment, var components = URLComponents(url: url, resolvingAgainstBaseURL: false),
              let items = components.percentEncodedQueryItems else { return url }
        var sent: [URLQueryItem] = []
        for item in items {
            let name = item.name.removingPercentEncoding ?? item.name
            guard let reference = query[name], !Self.variables(in: reference).isEmpty,
                  item.value?.removingPercentEncoding == reference, secret.map({ $0 == isSecretQueryParameter(name) }) ?? true else {
                sent.append(item)
                continue
            }
            guard let value = try Self.expand(reference, usedBy: "\(item.name) query parameter", environment: environment) else { continue }
            sent.append(URLQueryItem(name: item.name, value: SecretRedactor.percentEncoded(value)))
        }
        components.percentEncodedQueryItems = sent
        return components.url ?? url
    }

    /// The credentials this feed sends with `environment`: the values of the variables its headers
    /// name, and of those its secret query parameters name. Unset variables are left out.
    func credentials(environment: [String: String]) -> [SecretRedactor.Secret] {
        var found: [SecretRedactor.Secret] = []
        if let userInfo {
            // The password (or a user alone: a token), and the header it travels in, echoed back.
            let hidden = [userInfo.password ?? userInfo.user, String(userInfo.basicAuthorization.dropFirst("Basic ".count))]
            found += hidden.map { SecretRedactor.Secret(value: $0, reference: Self.hiddenUserInfo) }
        }
        for key in queryKeys {
            // A short key (`api_key=abc`) is taken out where it stands as the parameter, as URLs echo it:
            // taken out everywhere, three letters would be rewritten in every word that holds them.
            let secret = secrets != nil || Self.readsAsKey(key.value)
                ? SecretRedactor.Secret(value: key.value, reference: Self.hiddenQueryValue)
                : SecretRedactor.Secret(value: key.name + "=" + key.value, reference: key.name + "=" + Self.hiddenQueryValue, isWholeValue: true)
            if !found.contains(where: { $0.value == secret.value }) { found.append(secret) }
        }
        let sources = headers.values.map { $0 } + query.filter { isSecretQueryParameter($0.key) }.map(\.value)
        for source in sources {
            for (name, _) in Self.variables(in: source) {
                guard let value = environment[name], !value.isEmpty else { continue }
                let secret = SecretRedactor.Secret(value: value, reference: "${\(name)}")
                if !found.contains(secret) { found.append(secret) }
            }
        }
        return found
    }

    /// `response` with every spelling of the feed's secrets (raw, percent-encoded in either case,
    /// JSON- and `\u`-escaped; in headers, body and URL) replaced by its `${NAME}` reference, before
    /// anything of it is checked, shown or stored: servers echo request parameters into `Link`
    /// headers and next-page links, and some echo a whole `Authorization` header into an error page.
    /// A body without a secret is returned as it is, and valid JSON stays valid (see `SecretRedactor`).
    public func redacted(_ response: HTTPResponse, environment: [String: String]) -> HTTPResponse {
        SecretRedactor(credentials(environment: environment)).redact(response)
    }
}

extension Feed {
    /// Adds the feed's headers, its URL's user-info as Basic authentication (unless a header of the
    /// feed's says `Authorization` itself), its URL's keys (`api_key=***` → the key) and fills in its
    /// secret `${NAME}` query values, as a
    /// credential: the client applies it only to requests for the feed's own origin. Its `FeedError`s
    /// travel the client's pipeline as `RiffleError.caller`.
    func credentialProcessor(environment: [String: String]) -> RequestProcessor {
        RequestProcessor(name: "feed \(name)", isCredential: true) { request throws(RiffleError) in
            if let userInfo { request.headers["Authorization"] = userInfo.basicAuthorization }
            request.url = fillingQueryKeys(request.url)
            do throws(FeedError) {
                for (name, value) in try expandedHeaders(environment: environment).sorted(by: { $0.key < $1.key }) {
                    request.headers[name] = value
                }
                request.url = try expandedURL(request.url, environment: environment, secret: true)
            } catch {
                throw error.carried
            }
        }
    }

    /// Takes the (hidden) user-info out of every request's URL, whatever its origin: it travels only
    /// as the credential processor's header.
    func userInfoProcessor() -> RequestProcessor {
        RequestProcessor(name: "feed \(name) user-info") { request in request.url = Self.removingUserInfo(request.url) }
    }

    /// Fills in the `${NAME}` query values that are not credentials (`per_page=${PER_PAGE}`): they
    /// change what a page holds, so they are part of its URL as sent and of its cache key.
    func queryProcessor(environment: [String: String]) -> RequestProcessor {
        RequestProcessor(name: "feed \(name) query") { request throws(RiffleError) in
            do throws(FeedError) { request.url = try expandedURL(request.url, environment: environment, secret: false) } catch {
                throw error.carried
            }
        }
    }
}

extension Client {
    /// This client for `feed`'s pages: the same transport, retries, plugins and time budget, with the
    /// feed's origin as its base, `headers` on every request, the feed's credentials added for that origin
    /// only, and its secrets taken out of every answer (before any other processor sees it) and out of
    /// every error the transport reports. The client's own credential processors are kept only when the
    /// feed is at one of its base origins.
    func forFeed(_ feed: Feed, headers: [String: String], environment: [String: String]) -> Client {
        let base = feed.url(forPage: 1)
        var derived = configuration
        derived.baseURL = base
        derived.secondaryBaseURL = nil
        derived.headers = configuration.headers.merging(headers) { $1 }
        let keepCredentials = trustedOrigins.contains { $0 == Origin(base) }
        derived.processors = configuration.processors.filter { keepCredentials || !$0.isCredential }
            + [feed.userInfoProcessor(), feed.queryProcessor(environment: environment), feed.credentialProcessor(environment: environment)]
        let redactor = SecretRedactor(feed.credentials(environment: environment))
        guard !redactor.isEmpty else {
            derived.cache = nil
            return Client(derived, transport: transport)
        }
        derived.responseProcessors = [ResponseProcessor(name: "feed \(feed.name) redaction") { response, _ in
            response = redactor.redact(response)
        }] + configuration.responseProcessors
        derived.cache = nil
        return Client(derived, transport: RedactingTransport(base: transport, redactor: redactor))
    }
}

/// A transport whose errors carry no secret: a URL with a key in it, quoted by a message, is redacted
/// before any plugin, log line or toast sees it.
struct RedactingTransport: HTTPTransporting {
    let base: any HTTPTransporting
    let redactor: SecretRedactor

    func send(_ request: HTTPRequest, context: TransferContext) async throws(RiffleError) -> HTTPResponse {
        do { return try await base.send(request, context: context) } catch { throw redactor.redact(error) }
    }
}
