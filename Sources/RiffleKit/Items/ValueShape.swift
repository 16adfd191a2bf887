import Foundation

/// What one string looks like, judged on its bytes where they lie in the document (the first 64 at
/// most, so a long body costs no more than a title): a URL, a path, a date, a number, prose, an id...
/// The evidence a plan is inferred from (`FieldPlanner`) is these shapes counted over many items.
struct ValueShape: OptionSet {
    let rawValue: UInt16

    /// An absolute http(s) URL.
    static let url = ValueShape(rawValue: 1 << 0)
    /// A path from the server's root (`/r/swift/comments/…`), resolved against the page's URL.
    static let relative = ValueShape(rawValue: 1 << 1)
    /// A URL of the API rather than a page: `api.` host, an `/api/` or `/v2/` segment, `.json`.
    static let api = ValueShape(rawValue: 1 << 2)
    /// A URL of an image or a media file, or on an avatar or image host.
    static let media = ValueShape(rawValue: 1 << 3)
    /// An ISO 8601 date (`2024-05-01…`).
    static let date = ValueShape(rawValue: 1 << 4)
    /// A number written as text (`"42"`, `"1512085950.000216"`).
    static let numeric = ValueShape(rawValue: 1 << 5)
    /// Two words or more.
    static let spaced = ValueShape(rawValue: 1 << 6)
    /// One token that reads as an id, a hash, a UUID, a DOI or a URN rather than words.
    static let idlike = ValueShape(rawValue: 1 << 7)
    /// A slug: lowercase words joined by hyphens or underscores (`my-first-post`).
    static let slug = ValueShape(rawValue: 1 << 8)
    /// HTML markup or character references.
    static let html = ValueShape(rawValue: 1 << 9)
    /// An email address.
    static let email = ValueShape(rawValue: 1 << 10)
    /// Letters of any script (not only digits and signs).
    static let letters = ValueShape(rawValue: 1 << 11)
    /// Text outside ASCII (a CJK headline has no spaces to count words by).
    static let nonASCII = ValueShape(rawValue: 1 << 12)
    /// Empty text.
    static let empty = ValueShape(rawValue: 1 << 13)
    /// A URL on the page's own host, or a path (resolved there): the service's own page of the item
    /// (its discussion, its record) rather than what the item links to.
    static let ownHost = ValueShape(rawValue: 1 << 14)
    /// A constant in capitals (`OPEN`, `MEMBER`, `NONE`): an enum's value.
    static let constant = ValueShape(rawValue: 1 << 15)

    /// How many kinds there are: each one's count is a lane of `ShapeCounts`.
    static let kinds = 16

    /// How many bytes of a string are looked at.
    static let prefix = 64

    /// The shape and word count of a string's raw bytes (escapes as written: `\/` and `\n` are
    /// read as what they stand for where it matters).
    /// - Parameter host: the page's host, lowercase, to tell its own URLs from others.
    static func of(_ b: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>?) -> (shape: ValueShape, words: Int) {
        let count = b.count
        guard count > 0 else { return (.empty, 0) }
        let n = Swift.min(count, prefix)
        var shape: ValueShape = []
        // One pass over the prefix, each byte's class from a table and counted without branches.
        var words = 0, previousSpace = 1
        var seen: UInt16 = 0
        var digits = 0, upper = 0, lower = 0, joiners = 0, hyphens = 0, dots = 0, ats = 0, colons = 0
        var lt = false, amp = false
        classes.withUnsafeBufferPointer { classes in
            var i = 0
            while i < n {
                var c = classes[Int(b[i])]
                if c & Self.backslash != 0 {
                    // `\n`, `\t`, `\r` as written in JSON are white space.
                    if i &+ 1 < n, b[i &+ 1] == 0x6E || b[i &+ 1] == 0x74 || b[i &+ 1] == 0x72 {
                        c = Self.space
                        i &+= 1
                    }
                } else if c & (Self.lessThan | Self.ampersand) != 0, i &+ 1 < n {
                    let next = b[i &+ 1]
                    if c == Self.lessThan, isLetter(next) || next == 0x2F || next == 0x21 { lt = true }
                    if c == Self.ampersand, next == 0x23 || isLetter(next) { amp = true }
                }
                seen |= c
                let space = Int(c & Self.space)
                words &+= (space ^ 1) & previousSpace
                previousSpace = space
                lower &+= Int((c >> 1) & 1)
                upper &+= Int((c >> 2) & 1)
                digits &+= Int((c >> 3) & 1)
                hyphens &+= Int((c >> 4) & 1)
                joiners &+= Int((c >> 4) & 1) &+ Int((c >> 5) & 1)
                dots &+= Int((c >> 6) & 1)
                colons &+= Int((c >> 7) & 1)
                ats &+= Int((c >> 8) & 1)
                i &+= 1
            }
        }
        if count > n, words > 0 { words = words * count / n }
        let letters = upper &+ lower
        let high = seen & Self.high != 0, slash = seen & Self.slash != 0, other = seen & Self.other != 0
        if high { shape.insert([.nonASCII, .letters]) }
        if letters > 0 { shape.insert(.letters) }
        if lt || amp { shape.insert(.html) }
        if words >= 2 { shape.insert(.spaced) }

        if let rest = schemeEnd(b) {
            shape.insert(.url)
            if let host, isHost(host, of: b, at: rest) { shape.insert(.ownHost) }
            if isAPI(b, from: rest) { shape.insert(.api) }
            if isMedia(b, from: rest) { shape.insert(.media) }
            return (shape, words)
        }
        if b[0] == 0x2F, count > 1, b[1] != 0x2F, words == 1 {
            shape.insert([.relative, .ownHost])
            if isAPI(b, from: 0) { shape.insert(.api) }
            if isMedia(b, from: 0) { shape.insert(.media) }
            return (shape, words)
        }
        if count >= 10, isDigit(b[0]), isDigit(b[1]), isDigit(b[2]), isDigit(b[3]), b[4] == 0x2D, isDigit(b[5]), isDigit(b[6]), b[7] == 0x2D {
            shape.insert(.date)
            return (shape, words)
        }
        if words == 1, letters == 0, digits > 0, dots <= 1, !other, hyphens <= (b[0] == 0x2D ? 1 : 0), !high, colons == 0 {
            shape.insert(.numeric)
            return (shape, words)
        }
        guard words == 1, !high else { return (shape, words) }
        // One token: a constant, an email, a slug, or an id of some kind.
        if upper >= 2, lower == 0, digits == 0, !other, hyphens == 0, dots == 0, colons == 0, ats == 0, !slash {
            shape.insert(.constant)
        }
        if ats == 1, dots > 0, !slash {
            shape.insert(.email)
            return (shape, words)
        }
        if upper == 0, letters > 0, joiners >= 2, !other, dots == 0, colons == 0, !slash {
            shape.insert(.slug)
        }
        if isIDLike(b, count: n, letters: letters, digits: digits, dots: dots, colons: colons, slash: slash) {
            shape.insert(.idlike)
        }
        return (shape, words)
    }

    private static let space: UInt16 = 1, lowerCase: UInt16 = 2, upperCase: UInt16 = 4, digit: UInt16 = 8, hyphen: UInt16 = 16,
                       underscore: UInt16 = 32, dot: UInt16 = 64, colon: UInt16 = 128, at: UInt16 = 256, slash: UInt16 = 512,
                       lessThan: UInt16 = 1024, ampersand: UInt16 = 2048, high: UInt16 = 4096, other: UInt16 = 8192,
                       backslash: UInt16 = 16384

    /// Each byte's class (one bit each, in the order `of` counts them).
    private static let classes: [UInt16] = (0...255).map { (b: Int) -> UInt16 in
        switch b {
        case 0x20, 0x09, 0x0A, 0x0D: space
        case 0x61...0x7A: lowerCase
        case 0x41...0x5A: upperCase
        case 0x30...0x39: digit
        case 0x2D: hyphen
        case 0x5F: underscore
        case 0x2E: dot
        case 0x3A: colon
        case 0x40: at
        case 0x2F: slash
        case 0x3C: lessThan
        case 0x26: ampersand
        case 0x5C: backslash
        case 0x80...: high
        default: other
        }
    }

    @inline(__always) private static func isLetter(_ c: UInt8) -> Bool { (c | 0x20) >= 0x61 && (c | 0x20) <= 0x7A }
    @inline(__always) private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    @inline(__always) private static func isHex(_ c: UInt8) -> Bool { isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66) }

    /// Where the host starts, when the bytes begin with `http://` or `https://` (also escaped, `http:\/\/`).
    static func schemeEnd(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard b.count > 7, b[0] | 0x20 == 0x68, b[1] | 0x20 == 0x74, b[2] | 0x20 == 0x74, b[3] | 0x20 == 0x70 else { return nil }
        var i = 4
        if b[i] | 0x20 == 0x73 { i += 1 }
        guard i < b.count, b[i] == 0x3A else { return nil }
        i += 1
        for _ in 0..<2 {
            if i < b.count, b[i] == 0x5C { i += 1 }
            guard i < b.count, b[i] == 0x2F else { return nil }
            i += 1
        }
        return i < b.count ? i : nil
    }

    /// Whether the URL's host, starting at `start`, is `host` (lowercase).
    static func isHost(_ host: UnsafeBufferPointer<UInt8>, of b: UnsafeBufferPointer<UInt8>, at start: Int) -> Bool {
        guard start + host.count <= b.count else { return false }
        for j in 0..<host.count where b[start + j] | (isLetter(b[start + j]) ? 0x20 : 0) != host[j] { return false }
        let end = start + host.count
        return end == b.count || b[end] == 0x2F || b[end] == 0x3A || b[end] == 0x3F || b[end] == 0x23 || b[end] == 0x5C
    }

    /// Whether the URL (host at `start`, or a path when `start` is at a `/`) is the API's own:
    /// an `api.` host, a path segment `api` or `v1`, `v2`..., `.json` before the query, `format=json`.
    /// Only the first 128 bytes after `start` are searched; what follows a mark is read up to the
    /// value's end, which may lie beyond them.
    static func isAPI(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        let end = Swift.min(b.count, start + 128)
        func has(_ word: StaticString, at i: Int) -> Bool {
            let length = word.utf8CodeUnitCount
            guard i + length <= b.count else { return false }
            for j in 0..<length where b[i + j] | 0x20 != word.utf8Start[j] | 0x20 { return false }
            return true
        }
        if b[start] != 0x2F, has("api.", at: start) { return true }
        var i = start
        var query = false
        while i < end {
            let c = b[i]
            if c == 0x3F || c == 0x23 { query = true }
            if c == 0x2F || (c == 0x5C && i + 1 < end && b[i + 1] == 0x2F) {
                let s = c == 0x2F ? i + 1 : i + 2
                if !query {
                    if has("api", at: s), s + 3 == b.count || b[s + 3] == 0x2F || b[s + 3] == 0x5C || b[s + 3] == 0x3F { return true }
                    // Azure DevOps' `/_apis/`.
                    if has("_apis", at: s) { return true }
                    if s + 1 < end, b[s] | 0x20 == 0x76, isDigit(b[s + 1]) {
                        var j = s + 1
                        while j < end, isDigit(b[j]) { j += 1 }
                        if j < end, b[j] == 0x2F || b[j] == 0x5C || b[j] == 0x2E { return true }
                    }
                }
            }
            if !query, c == 0x2E, has(".json", at: i), i + 5 == b.count || b[i + 5] == 0x3F || b[i + 5] == 0x23 { return true }
            if query, c == 0x66 || c == 0x46, has("format=json", at: i) { return true }
            i += 1
        }
        return false
    }

    /// Whether the URL's host (at `host`; a path when it is at a `/`) begins `api.` or its first path
    /// segment is `api`: the marks of an endpoint cheap enough to check on every item.
    static func isPlainAPI(_ b: UnsafeBufferPointer<UInt8>, host: Int) -> Bool {
        func has(_ word: StaticString, at i: Int) -> Bool {
            let length = word.utf8CodeUnitCount
            guard i + length <= b.count else { return false }
            for j in 0..<length where b[i + j] | 0x20 != word.utf8Start[j] | 0x20 { return false }
            return true
        }
        var slash = host
        if b[host] != 0x2F {
            if has("api.", at: host) { return true }
            while slash < b.count, b[slash] != 0x2F, b[slash] != 0x5C { slash += 1 }
        }
        if slash < b.count, b[slash] == 0x5C { slash += 1 }
        guard slash < b.count else { return false }
        let s = slash + 1
        return has("api", at: s) && (s + 3 == b.count || b[s + 3] == 0x2F || b[s + 3] == 0x5C || b[s + 3] == 0x3F)
    }

    /// Extensions of images and media files.
    private static let mediaExtensions: [StaticString] = [".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".ico", ".bmp", ".avif",
                                                          ".mp3", ".mp4", ".m4a", ".webm", ".mov", ".wav", ".ogg"]
    /// Hosts of avatars and images.
    private static let mediaHosts: [StaticString] = ["avatars", "images.", "img.", "i.ytimg", "pbs.twimg", "secure.gravatar",
                                                     "www.gravatar", "i.scdn"]

    /// Whether the URL points at an image or a media file (by its extension before the query), or
    /// sits on an avatar or image host.
    static func isMedia(_ b: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        func has(_ word: StaticString, at i: Int) -> Bool {
            let length = word.utf8CodeUnitCount
            guard i + length <= b.count else { return false }
            for j in 0..<length where b[i + j] | 0x20 != word.utf8Start[j] { return false }
            return true
        }
        if b[start] != 0x2F, mediaHosts.contains(where: { has($0, at: start) }) { return true }
        var end = start
        while end < b.count, b[end] != 0x3F, b[end] != 0x23 { end += 1 }
        var dot = end - 1
        while dot > start, end - dot <= 6, b[dot] != 0x2E, b[dot] != 0x2F { dot -= 1 }
        guard dot > start, b[dot] == 0x2E else { return false }
        return mediaExtensions.contains { has($0, at: dot) && dot + $0.utf8CodeUnitCount == end }
    }

    /// One token that is an id rather than a word or a name: a UUID, a long hex hash, a DOI, a URN
    /// (`at://…`, `urn:…`), or letters mixed with two digits or more (`1h2w3xb`, `U061F7AUR`). A file
    /// name (`httpx-0.27.2-py3-none-any.whl`) is not one.
    private static func isIDLike(_ b: UnsafeBufferPointer<UInt8>, count n: Int, letters: Int, digits: Int, dots: Int,
                                 colons: Int, slash: Bool) -> Bool {
        if colons > 0, letters > 0 { return true }
        if n >= 4, b[0] == 0x31, b[1] == 0x30, b[2] == 0x2E, isDigit(b[3]), slash { return true }  // a DOI: 10.1234/…
        if n >= 12, digits > 0 {
            var hex = true
            for i in 0..<n where !(isHex(b[i]) || b[i] == 0x2D) {
                hex = false
                break
            }
            if hex { return true }
        }
        // A file name ends in a short extension of letters.
        if dots > 0, n > 4 {
            var j = n - 1
            while j > 0, isLetter(b[j]) { j -= 1 }
            if b[j] == 0x2E, (2...4).contains(n - 1 - j) { return false }
        }
        return n >= 6 && letters > 0 && digits >= 2 && !slash
    }
}

/// A count per `ValueShape` kind, added up over a path's values in one vector operation.
struct ShapeCounts: Equatable {
    private(set) var lanes = SIMD16<UInt16>()
    private static let bits = SIMD16<UInt16>(1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768)
    private static let shifts = SIMD16<UInt16>(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)

    /// Counts one value of `shape`.
    @inline(__always) mutating func add(_ shape: ValueShape) {
        lanes &+= (SIMD16(repeating: shape.rawValue) & Self.bits) &>> Self.shifts
    }

    /// How many values had `shape` (a single kind).
    subscript(shape: ValueShape) -> Int {
        Int(lanes[shape.rawValue.trailingZeroBitCount])
    }
}
