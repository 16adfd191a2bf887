/// An error of the caller's own, thrown by its code inside the client's pipeline (a request processor,
/// an endpoint's decoding) and carried through the client, the cache and the plugins unchanged, so the
/// caller gets it back as it threw it. RiffleKit's feeds send their `FeedError`s this way.
///
/// ```swift
/// struct QuotaSpent: Error, Sendable, Equatable, CustomStringConvertible {
///     var description: String { "the daily quota is spent" }
/// }
///
/// let quota = RequestProcessor(name: "quota") { _ throws(RiffleError) in
///     throw .caller(CallerError(QuotaSpent()))
/// }
/// ```
public struct CallerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The caller's error, as it was thrown.
    public let error: any Error & Sendable
    /// The error's own text.
    public let description: String
    private let matches: @Sendable (any Error) -> Bool

    /// Carries `error`; two carried errors are equal when they are of one type and equal.
    public init<Failure: Error & Sendable & Equatable & CustomStringConvertible>(_ error: Failure) {
        self.error = error
        description = error.description
        matches = { ($0 as? Failure) == error }
    }

    /// Whether both carry equal errors of one type.
    public static func == (lhs: CallerError, rhs: CallerError) -> Bool { lhs.matches(rhs.error) }
}
