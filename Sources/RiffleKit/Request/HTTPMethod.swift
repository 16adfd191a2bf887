/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
    case head = "HEAD"

    /// Whether sending the request twice has the same effect as once (RFC 9110 §9.2.2), so it may be
    /// retried after a transient failure. POST and PATCH are not.
    public var isIdempotent: Bool { self != .post && self != .patch }
}
