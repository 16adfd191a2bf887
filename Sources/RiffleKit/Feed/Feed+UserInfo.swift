import Foundation

/// The user-info of a feed URL (`https://user:PASSWORD@host/...`) is a credential, like a `${NAME}`
/// value: the password never enters `template`, which reads `https://user:***@host/...` (and a user
/// given alone, often a token, reads `***@host`), so page URLs, the index, the reading log, listings
/// and logs only ever hold that. It is sent as HTTP Basic authentication (as libcurl would send the
/// URL's user-info), only to the feed's own origin, and no request URL carries user-info at all.
extension Feed {
    /// A feed URL's user-info, percent-decoded.
    package struct UserInfo: Sendable, Hashable {
        /// The user name.
        package var user: String
        /// The password; nil when the URL gives only a user (`https://TOKEN@host/...`).
        package var password: String?

        /// The `Authorization` header value: `Basic` and `user:password` in base64 (RFC 7617).
        var basicAuthorization: String { "Basic " + Data("\(user):\(password ?? "")".utf8).base64EncodedString() }
    }

    /// What stands for the hidden part of a URL's user-info wherever the URL is kept or shown.
    package static let hiddenUserInfo = "***"

    /// `template` with its user-info hidden (`user:***@`, or `***@` for a user alone), and that
    /// user-info; the template as it is when it has none. A user-info hidden already (a URL copied from
    /// riffle's own listings) is no credential: nil (`isMissingPassword`).
    package static func separatingUserInfo(_ template: String) -> (template: String, userInfo: UserInfo?) {
        guard let span = userInfoSpan(template) else { return (template, nil) }
        let raw = template[span]
        let colon = raw.firstIndex(of: ":")
        let user = String(raw[..<(colon ?? raw.endIndex)])
        let password = colon.map { String(raw[raw.index(after: $0)...]) }
        let masked = template.replacingCharacters(in: span, with: password == nil ? hiddenUserInfo : "\(user):\(hiddenUserInfo)")
        if password == hiddenUserInfo || (password == nil && user == hiddenUserInfo) { return (masked, nil) }
        let decoded = UserInfo(user: user.removingPercentEncoding ?? user, password: password.map { $0.removingPercentEncoding ?? $0 })
        return (masked, decoded)
    }

    /// Whether the template's user-info is hidden with no credential behind it: the feed was opened
    /// from a URL as riffle shows it, whose password was never kept. Its pages on disk are its own
    /// (the identity is the same), but a request would go without the credential.
    package var isMissingPassword: Bool { userInfo == nil && Self.userInfoSpan(template) != nil }

    /// `text` (a URL or URL template) with its user-info hidden as `template` keeps it: for showing a
    /// URL as written in a feeds file.
    package static func hidingUserInfo(_ text: String) -> String {
        guard let span = userInfoSpan(text) else { return text }
        let raw = text[span]
        return text.replacingCharacters(in: span, with: raw.contains(":") ? "\(raw[..<raw.firstIndex(of: ":")!]):\(hiddenUserInfo)" : hiddenUserInfo)
    }

    /// The range of the user-info in `text` (between `scheme://` and the authority's last `@`), when
    /// there is a non-empty one.
    private static func userInfoSpan(_ text: String) -> Range<String.Index>? {
        guard let slashes = text.range(of: "://") else { return nil }
        let authority = text[slashes.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@"), at > authority.startIndex else { return nil }
        return authority.startIndex..<at
    }

    /// `url` without user-info: what every request of the feed is sent to (the user-info goes as a
    /// header, to the feed's origin only).
    static func removingUserInfo(_ url: URL) -> URL {
        guard url.user != nil || url.password != nil, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        components.percentEncodedUser = nil
        components.percentEncodedPassword = nil
        return components.url ?? url
    }
}
