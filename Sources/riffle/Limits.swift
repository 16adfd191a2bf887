/// The ranges the command line accepts for its numbers, in one place. Together with the feeds file's
/// own bound (its `first` and `limit` are below a billion) they keep every later sum and product (a
/// page's number on the server, an offset, a window of pages) far from overflowing.
enum Limits {
    /// Page numbers, as in `--pages 1-5` and `--demo-fail 3`: a million pages is more than any dump.
    static let page = 1...1_000_000
    /// `--first-page`: servers count from 0 or 1; a billion leaves room for page numbers to be added.
    static let firstPage = 0...1_000_000_000
    /// `--concurrency`: more requests at once than this is unkind to any server.
    static let concurrency = 1...64
    /// `--max-age` in seconds: up to ten years.
    static let maxAge = 0...315_360_000
}
