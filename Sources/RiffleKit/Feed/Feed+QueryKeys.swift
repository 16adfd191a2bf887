import Foundation

/// A key written into a feed URL's query (`?api_key=KEY&page={page}`, as NewsAPI, the New York Times,
/// OpenWeather and Google's APIs are most often given) is a credential, like a password in the
/// user-info: the value never enters `template`, which reads `api_key=***`, so page URLs, the index,
/// the reading log, listings and logs only ever hold that. It is filled back in for requests to the
/// feed's own origin only, and a server's echo of it is taken out as `***`.
///
/// A parameter is such a key when its name says so (`isSecretQueryParameter`: `api_key`, `apikey`,
/// `access_token`, `appid`, `sig`..., or the feed's `secrets`) and its value is written out, not a
/// `${NAME}` reference, and is a key whatever its length when the name is a credential's through and
/// through (`isKeyName`: `key`, `api_key`, `token`, `sig`, `password`); under a name that only holds
/// such a word (`sort_key`, `page_token`) when its value reads as a key rather than a word: 12
/// characters or more with a digit, or 20 or more (`sort_key=created_at` stays as it is). A parameter
/// the feed's `secrets` names is a key whatever its value.
extension Feed {
    /// One key of the template's query: its parameter's name, the value as written in the URL
    /// (percent-encoding included, sent back exactly so), and that value decoded.
    package struct QueryKey: Sendable, Hashable {
        package var name: String
        package var written: String
        package var value: String
    }

    /// What stands for a key taken out of the template's query.
    package static let hiddenQueryValue = "***"

    /// `template` with each key of its query replaced by `***`, and those keys in order. A `***`
    /// already there (a URL copied from riffle's own listings) hides no key (`missingQueryKeys`).
    package static func separatingQueryKeys(_ template: String, secrets: Set<String>?) -> (template: String, keys: [QueryKey]) {
        guard let query = querySpan(template) else { return (template, []) }
        var keys: [QueryKey] = []
        var rewritten: [Substring] = []
        for part in template[query].split(separator: "&", omittingEmptySubsequences: false) {
            guard let equals = part.firstIndex(of: "=") else { rewritten.append(part); continue }
            let rawName = part[..<equals], written = String(part[part.index(after: equals)...])
            let name = rawName.removingPercentEncoding ?? String(rawName)
            let value = written.removingPercentEncoding ?? written
            // The mark percent-encoded (`%2A%2A%2A`, a link copied as `y` or `riffle dump` give it) is
            // the mark: shown and kept as `***`, a key riffle does not have.
            if value == hiddenQueryValue, written != hiddenQueryValue, isSecretQueryParameter(name, secrets: secrets) {
                rewritten.append(rawName + "=" + hiddenQueryValue)
                continue
            }
            // A `${NAME}` reference or a placeholder is no key written out.
            guard isSecretQueryParameter(name, secrets: secrets), written != hiddenQueryValue, !value.contains("{"),
                  !value.isEmpty, secrets != nil || isKeyName(name) || readsAsKey(value) else {
                rewritten.append(part)
                continue
            }
            keys.append(QueryKey(name: name, written: written, value: value))
            rewritten.append(rawName + "=" + hiddenQueryValue)
        }
        let rewrittenQuery = rewritten.joined(separator: "&")
        guard rewrittenQuery != template[query] else { return (template, keys) }
        return (template.replacingCharacters(in: query, with: rewrittenQuery), keys)
    }

    /// The names of the template's query parameters that read `***` with no key behind them: the feed
    /// was opened from a URL as riffle shows it, and a request would go without its key.
    package var missingQueryKeys: [String] {
        guard let query = Self.querySpan(template) else { return [] }
        let names = template[query].split(separator: "&").compactMap(Self.hiddenName)
        var unmatched = queryKeys.map(\.name)
        return names.filter { name in
            guard let index = unmatched.firstIndex(of: name) else { return true }
            unmatched.remove(at: index)
            return false
        }
    }

    /// `text` (a URL or URL template) with its user-info and the keys of its query hidden as
    /// `template` keeps them: for keeping or showing a URL as the user wrote it.
    package static func hidingCredentials(_ text: String) -> String {
        separatingQueryKeys(hidingUserInfo(text), secrets: nil).template
    }

    /// `template` without the parameters that hold a key or a hidden one (`apiKey=***`), and their
    /// names in order: the URL a feeds file can keep, the keys then given as `query` references.
    package var templateWithoutKeys: (template: String, names: [String]) {
        guard let query = Self.querySpan(template) else { return (template, []) }
        var names: [String] = []
        let kept = template[query].split(separator: "&", omittingEmptySubsequences: false).filter { part in
            guard let name = Self.hiddenName(part) else { return true }
            names.append(name)
            return false
        }
        guard !names.isEmpty else { return (template, []) }
        let queryText = kept.joined(separator: "&")
        // No `?` left behind when the key was all the query held.
        let start = queryText.isEmpty ? template.index(before: query.lowerBound) : query.lowerBound
        return (template.replacingCharacters(in: start..<query.upperBound, with: queryText), names)
    }

    /// A name for the environment variable that holds key `parameter` of a feed at `host`: the
    /// host's own name and the parameter, in capitals (`newsapi.org`, `apiKey` → `NEWSAPI_APIKEY`;
    /// `api.nytimes.com`, `api-key` → `NYTIMES_API_KEY`); the parameter alone for an address.
    package static func keyVariable(for parameter: String, host: String?) -> String {
        func shout(_ text: String) -> String {
            String(text.uppercased().unicodeScalars.map { ("A"..."Z").contains($0) || ("0"..."9").contains($0) ? Character($0) : "_" })
        }
        let labels = (host ?? "").split(separator: ".").map(String.init)
        let isAddress = labels.allSatisfy { Int($0) != nil } || (host ?? "").contains(":")
        let site = isAddress || labels.count < 2 ? nil : labels[labels.count - 2]
        let name = site.map { shout($0) + "_" } ?? ""
        let variable = name + shout(parameter)
        return variable.first.map { ("0"..."9").contains($0) } == true ? "KEY_" + variable : variable
    }

    /// Whether the URL was given with a credential in it, or with one riffle hid (a password in the
    /// user-info, a key in the query): such a URL is never written to a feeds file.
    package var urlHoldsCredential: Bool {
        userInfo != nil || isMissingPassword || !queryKeys.isEmpty || !missingQueryKeys.isEmpty
    }

    /// `url` with each `name=***` of the feed's keys given its key back, in the order the template
    /// has them: what is sent, to the feed's own origin only (`credentialProcessor`).
    func fillingQueryKeys(_ url: URL) -> URL {
        // Most feeds have no key: their requests' URLs are not taken apart.
        guard !queryKeys.isEmpty else { return url }
        let text = url.absoluteString
        guard let query = Self.querySpan(text) else { return url }
        var left = queryKeys
        let parts = text[query].split(separator: "&", omittingEmptySubsequences: false).map { part -> Substring in
            guard let name = Self.hiddenName(part), let index = left.firstIndex(where: { $0.name == name }) else { return part }
            return part[..<part.firstIndex(of: "=")!] + "=" + left.remove(at: index).written
        }
        return URL(string: text.replacingCharacters(in: query, with: parts.joined(separator: "&"))) ?? url
    }

    /// Whether a value written for a credential-named parameter reads as a key, not a word or a field
    /// name: 12 characters or more with a digit among them, or 20 or more.
    static func readsAsKey(_ value: String) -> Bool {
        let count = value.unicodeScalars.count
        return count >= 20 || (count >= 12 && value.utf8.contains { (48...57).contains($0) })
    }

    /// Whether parameter `name` carries a credential, by `secrets` when given, else by its name.
    static func isSecretQueryParameter(_ name: String, secrets: Set<String>?) -> Bool {
        secrets.map { $0.contains(name) } ?? isCredentialName(name)
    }

    /// The decoded name of a query part `name=***` (a key riffle hid; `%2A%2A%2A` too); nil for any other part.
    private static func hiddenName(_ part: Substring) -> String? {
        guard let equals = part.firstIndex(of: "="), part[part.index(after: equals)...].removingPercentEncoding == hiddenQueryValue else { return nil }
        return part[..<equals].removingPercentEncoding ?? String(part[..<equals])
    }

    /// The query of a URL or URL template: after its first `?`, up to its `#`; nil when it has none.
    private static func querySpan(_ text: String) -> Range<String.Index>? {
        guard let mark = text.firstIndex(of: "?") else { return nil }
        let start = text.index(after: mark)
        let end = text[start...].firstIndex(of: "#") ?? text.endIndex
        return start < end ? start..<end : nil
    }
}
