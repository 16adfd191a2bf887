import Foundation
import RiffleJSON

extension Endpoint where Response: Decodable {
    /// An endpoint whose payload decodes with `JSONDecoder` into `Response`.
    ///
    /// ```swift
    /// struct User: Decodable, Sendable { var id: Int; var name: String }
    ///
    /// let user = Endpoint<User>(.get, "/users/42")
    /// let created = Endpoint<User>(.post, "/users", body: .json(["name": "Ada"]))
    /// ```
    public init(_ method: HTTPMethod = .get, _ target: Target, query: KeyValuePairs<String, String> = [:],
                body: RequestBody? = nil, headers: [String: String] = [:], timeout: Duration? = nil,
                cachePolicy: CachePolicy = .returnCacheElseLoad, maxAge: TimeInterval? = nil, shape: JSONShape? = nil) {
        self.init(method: method, target: target, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
                  body: body, headers: headers, timeout: timeout, cachePolicy: cachePolicy, maxAge: maxAge, shape: shape,
                  decoding: .json { payload, bytes throws(RiffleError) in
                      do {
                          return try JSONDecoder().decode(Response.self, from: bytes ?? JSONWriter.data(payload))
                      } catch {
                          throw .validation(path: "$", expected: String(describing: Response.self),
                                            actual: RiffleError.oneLine(String(describing: error)))
                      }
                  })
    }
}

extension Endpoint where Response == JSONValue {
    /// An endpoint whose response is the JSON payload itself.
    public init(_ method: HTTPMethod = .get, _ target: Target, query: KeyValuePairs<String, String> = [:],
                body: RequestBody? = nil, headers: [String: String] = [:], timeout: Duration? = nil,
                cachePolicy: CachePolicy = .returnCacheElseLoad, maxAge: TimeInterval? = nil, shape: JSONShape? = nil) {
        self.init(method: method, target: target, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
                  body: body, headers: headers, timeout: timeout, cachePolicy: cachePolicy, maxAge: maxAge, shape: shape,
                  decoding: .json { payload, _ in payload })
    }
}

extension Endpoint where Response == Data {
    /// An endpoint whose response is the raw body: no JSON parsing, envelope or shape (e.g. a download).
    public static func data(_ method: HTTPMethod = .get, _ target: Target, query: KeyValuePairs<String, String> = [:],
                            body: RequestBody? = nil, headers: [String: String] = [:], timeout: Duration? = nil,
                            cachePolicy: CachePolicy = .returnCacheElseLoad, maxAge: TimeInterval? = nil) -> Self {
        var endpoint = Endpoint(method: method, target: target, query: query.map { URLQueryItem(name: $0.key, value: $0.value) },
                                body: body, headers: headers, timeout: timeout, cachePolicy: cachePolicy, maxAge: maxAge, shape: nil,
                                decoding: .raw { $0 })
        endpoint.envelope = .none
        return endpoint
    }
}
