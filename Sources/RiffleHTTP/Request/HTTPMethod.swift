/// An HTTP request method.
public enum HTTPMethod: String, Sendable, Hashable, CaseIterable {
    /// Reads a resource.
    case get = "GET"
    /// Creates or submits; not idempotent.
    case post = "POST"
    /// Replaces a resource.
    case put = "PUT"
    /// Changes part of a resource; not idempotent.
    case patch = "PATCH"
    /// Removes a resource.
    case delete = "DELETE"
    /// Like GET, headers only.
    case head = "HEAD"

    /// Whether sending the request twice has the same effect as once (RFC 9110 §9.2.2), so it may be
    /// retried after a transient failure. POST and PATCH are not.
    public var isIdempotent: Bool { self != .post && self != .patch }
}
