import Foundation

/// A file inside the cache folder, in one of the two shapes the cache writes:
/// `feeds/<feed-id>/feed_<page>.json` (a page) or `responses/<key>-<nonce>.body` (another response).
///
/// Every path read back from the index goes through `init?(_:)`: anything else (absolute, `..`,
/// another folder, another name) is not the cache's, so it is never opened and never deleted.
struct CachePath: Hashable, Sendable, CustomStringConvertible {
    /// The folders from the cache root: `["feeds", feedID]` or `["responses"]`.
    let folders: [String]
    /// The file's name inside them.
    let name: String

    /// The path relative to the cache root, as the index keeps it.
    var description: String { (folders + [name]).joined(separator: "/") }

    init?(_ relative: String) {
        let parts = relative.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts.count == 3, parts[0] == "feeds", Self.isFeedID(parts[1]), Self.pageNumber(parts[2]) != nil {
            folders = [parts[0], parts[1]]
        } else if parts.count == 2, parts[0] == "responses", Self.isBodyName(parts[1]) {
            folders = [parts[0]]
        } else {
            return nil
        }
        name = parts[parts.count - 1]
    }

    /// Page `number` of the feed `feedID`; nil when `feedID` is not a folder name the cache uses.
    static func page(feed feedID: String, number: Int) -> CachePath? {
        CachePath("feeds/\(feedID)/feed_\(number).json")
    }

    /// A fresh file name for a response body under `responses/`.
    static func body(key: CacheKey) -> CachePath? {
        CachePath("responses/\(key.id)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(to: 8)).body")
    }

    /// Whether this is a page file (its body is the exact bytes of a feed's page).
    var isPage: Bool { folders.first == "feeds" }

    /// Feed ids are short hashes (`Feed.id`); a folder name of letters, digits, `-` and `_` only.
    static func isFeedID(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { Self.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// `feed_12.json` → 12; nil for any other name.
    static func pageNumber(_ name: String) -> Int? {
        guard name.hasPrefix("feed_"), name.hasSuffix(".json") else { return nil }
        let digits = name.dropFirst(5).dropLast(5)
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int(digits)
    }

    /// `<64 hex>-<8 hex>.body`.
    static func isBodyName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 64 + 1 + 8 + 5, name.hasSuffix(".body"), bytes[64] == UInt8(ascii: "-") else { return false }
        return (bytes[0..<64] + bytes[65..<73]).allSatisfy(Self.isLowerHex)
    }

    /// The temporary name a new version of `name` is written under before it is renamed over it:
    /// `.feed_3.json.<pid>.<random>.tmp`. The process id lets a later run tell a write in progress
    /// from one a crash left behind.
    static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
    }

    /// The writer's process id when `entry` is a temporary file of the cache's (for a page or a
    /// body name), else nil.
    static func temporaryWriter(_ entry: String) -> pid_t? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
        let parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, let pid = pid_t(parts[parts.count - 2]), pid > 0,
              parts[parts.count - 1].utf8.allSatisfy(isLowerHex) else { return nil }
        let final = parts.dropLast(2).joined(separator: ".")
        return pageNumber(final) != nil || isBodyName(final) ? pid : nil
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}
