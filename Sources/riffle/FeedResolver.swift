import RiffleKit

/// Turns what the user typed as FEED (a URL template; later also a preset or a feeds-file name)
/// into a `Feed`.
enum FeedResolver {
    static func resolve(_ argument: String, firstPage: Int?) throws(Arguments.UsageError) -> Feed {
        do {
            return try Feed(template: argument, firstPage: firstPage ?? 1)
        } catch {
            throw .init(error.description)
        }
    }
}
