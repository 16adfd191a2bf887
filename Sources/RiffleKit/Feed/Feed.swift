import Foundation

/// A paged JSON feed: where its pages are and how to name it.
///
/// ```swift
/// let feed = try Feed(template: "https://lobste.rs/page/{page}.json")
/// feed.url(forPage: 2)  // https://lobste.rs/page/2.json
/// ```
public struct Feed: Sendable, Hashable {
    /// The text that stands for the page number in `template`.
    public static let pagePlaceholder = "{page}"

    /// What the user calls the feed; shown in the header.
    public var name: String
    /// The URL with `{page}` where the page number goes.
    public var template: String
    /// The number the server gives its first page (0 or 1). Riffle always numbers pages from 1.
    public var firstPage: Int
    /// What identifies the feed's pages on disk; the template unless set (the demo feed's port
    /// changes every run, its pages should not move).
    public var cacheIdentity: String

    /// Creates a feed after checking the template: it must parse as an http(s) URL with a host and contain `{page}`.
    /// - Throws: `Feed.TemplateError` saying what is wrong.
    public init(template: String, name: String? = nil, firstPage: Int = 1, cacheIdentity: String? = nil) throws(TemplateError) {
        guard template.contains(Self.pagePlaceholder) else { throw .missingPlaceholder(template) }
        guard let url = URL(string: template.replacingOccurrences(of: Self.pagePlaceholder, with: "1")),
              let scheme = url.scheme?.lowercased() else { throw .unparsable(template) }
        guard scheme == "http" || scheme == "https" else { throw .unsupportedScheme(scheme) }
        guard let host = url.host, !host.isEmpty else { throw .unparsable(template) }
        self.template = template
        self.firstPage = firstPage
        self.name = name ?? host
        self.cacheIdentity = cacheIdentity ?? template
    }

    /// A short, stable folder name for this feed's pages: a hash of `cacheIdentity`, never server text.
    public var id: String { StableHash.hex(of: cacheIdentity) }

    /// The URL of Riffle's page `number` (1-based), offset by `firstPage`.
    public func url(forPage number: Int) -> URL {
        let serverPage = number - 1 + firstPage
        // The template was validated at init, and an integer cannot make it unparsable.
        return URL(string: template.replacingOccurrences(of: Self.pagePlaceholder, with: String(serverPage)))!
    }

    /// What is wrong with a feed URL template; each reads as one line.
    public enum TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
        case missingPlaceholder(String)
        case unparsable(String)
        case unsupportedScheme(String)

        public var description: String {
            switch self {
            case .missingPlaceholder(let t): "the URL has no {page} placeholder: \(t)"
            case .unparsable(let t): "not a valid URL: \(t)"
            case .unsupportedScheme(let s): "unsupported URL scheme '\(s)' (use http or https)"
            }
        }
    }
}

/// FNV-1a, 64 bits: stable across runs and machines (Swift's `Hasher` is seeded per process).
enum StableHash {
    static func hex(of text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
