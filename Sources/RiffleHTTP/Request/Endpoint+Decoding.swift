import Foundation
import RiffleJSON

extension Endpoint where Response: Decodable {
    /// An endpoint whose JSON payload decodes into `Response`: the one initializer of `Endpoint`.
    ///
    /// `Endpoint<JSONValue>` keeps the payload itself (numbers as written, keys in order); any other
    /// `Decodable` type goes through `decoder`, else the client's `Configuration.decoder`. Raw bodies
    /// (an image, a download) are `Endpoint.bytes(_:_:query:body:headers:)`, which never reads JSON:
    /// `Endpoint<Data>` made here expects JSON and decodes a base64 string, as `JSONDecoder` does.
    ///
    /// ```swift
    /// struct User: Decodable, Sendable { var id: Int; var displayName: String; var joinedAt: Date }
    ///
    /// let snakeCase = JSONDecoder()
    /// snakeCase.keyDecodingStrategy = .convertFromSnakeCase      // "display_name"
    /// snakeCase.dateDecodingStrategy = .iso8601                   // "joined_at": "2024-05-01T09:30:00Z"
    ///
    /// let user = Endpoint<User>(.get, "/users/42", decoder: snakeCase)
    /// let created = Endpoint<User>(.post, "/users", body: .json(["name": "Ada"]), decoder: snakeCase)
    /// let raw = Endpoint<JSONValue>(.get, "/users/42", cachePolicy: .reloadIgnoringCache)
    /// ```
    ///
    /// - Parameters:
    ///   - method: the request method.
    ///   - target: a path against the client's base URL (a string literal), or `.secondary(path)`, `.url(url)`.
    ///   - query: query parameters, appended in order.
    ///   - body: the body; it sets `Content-Type` unless `headers` does.
    ///   - headers: header fields, over the client's.
    ///   - timeout: the whole request's time, retries included; nil: the client's.
    ///   - cachePolicy: how the client's cache is used.
    ///   - maxAge: seconds an answer stays fresh when the server's headers say nothing; nil: the client's.
    ///   - shape: the JSON shape the payload must have; nil: anything.
    ///   - decoder: the decoder for `Response`; nil: the client's.
    public init(_ method: HTTPMethod = .get, _ target: Target, query: KeyValuePairs<String, String> = [:],
                body: RequestBody? = nil, headers: [String: String] = [:], timeout: Duration? = nil,
                cachePolicy: CachePolicy = .returnCacheElseLoad, maxAge: TimeInterval? = nil, shape: JSONShape? = nil,
                decoder: JSONDecoder? = nil) {
        self.init(method: method, target: target, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
                  body: body, headers: headers, timeout: timeout, cachePolicy: cachePolicy, maxAge: maxAge, shape: shape,
                  decoding: .json { payload, bytes, decoder throws(RiffleError) in
                      // The payload is already the value: no second pass through a decoder.
                      if let value = payload as? Response { return value }
                      do {
                          return try decoder.decode(Response.self, from: bytes ?? JSONWriter.data(payload))
                      } catch {
                          throw .validation(path: "$", expected: String(describing: Response.self),
                                            actual: RiffleError.oneLine(String(describing: error)))
                      }
                  })
        self.decoder = decoder
    }

    /// A GET of `target`: `Endpoint(.get, target, query: query)`.
    ///
    /// ```swift
    /// let search = Endpoint<JSONValue>.get("/search", query: ["q": "swift"])
    /// ```
    public static func get(_ target: Target, query: KeyValuePairs<String, String> = [:]) -> Self {
        Endpoint(.get, target, query: query)
    }

    /// A POST of `body` to `target`: `Endpoint(.post, target, body: body)`.
    ///
    /// ```swift
    /// let login = Endpoint<JSONValue>.post("/login", body: .json(["user": "ada", "password": "secret"]))
    /// ```
    public static func post(_ target: Target, body: RequestBody?) -> Self {
        Endpoint(.post, target, body: body)
    }
}

extension Endpoint where Response == Data {
    /// An endpoint whose response is the body's bytes exactly as they arrived: no JSON parsing, envelope,
    /// shape or decoder (an image, a download, a CSV export). Cached, retried and de-duplicated like
    /// any other endpoint; a non-2xx status is still `RiffleError.httpStatus`.
    ///
    /// ```swift
    /// let avatar = try await client.send(.bytes(.get, "/avatars/42.png")).value
    /// ```
    public static func bytes(_ method: HTTPMethod = .get, _ target: Target, query: KeyValuePairs<String, String> = [:],
                             body: RequestBody? = nil, headers: [String: String] = [:]) -> Self {
        var endpoint = Endpoint(method, target, query: query, body: body, headers: headers)
        endpoint.decoding = .raw { $0 }
        endpoint.envelope = .none
        // The client's default asks for JSON; a download takes what the server has.
        if !headers.keys.contains(where: { $0.lowercased() == "accept" }) { endpoint.headers["Accept"] = "*/*" }
        return endpoint
    }
}
