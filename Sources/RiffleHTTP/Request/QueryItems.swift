import Foundation

extension URLComponents {
    /// Appends `items` to the query, leaving the query already there exactly as written.
    ///
    /// Each name and value is percent-encoded as the `queryItems` setter encodes them, and `+` too:
    /// servers read a raw `+` as a space. (That setter re-encodes the whole query from its decoded
    /// form, so a `%2B` already in it came back as a `+`, and a `+` meaning a space could only be
    /// kept or changed to a plus along with every other.)
    /// - Parameter names: items already in the query with one of these names (read decoded) are
    ///   dropped first, as when a cursor replaces the one before it.
    package mutating func appendQueryItems(_ items: [URLQueryItem], replacing names: Set<String> = []) {
        var query = percentEncodedQueryItems ?? []
        if !names.isEmpty { query.removeAll { names.contains($0.name.removingPercentEncoding ?? $0.name) } }
        query += items.map { URLQueryItem(name: Self.queryEncoded($0.name), value: $0.value.map(Self.queryEncoded)) }
        percentEncodedQueryItems = query
    }

    /// `text` percent-encoded for a query name or value: `&`, `=` and `+` included.
    package static func queryEncoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryValueAllowed) ?? text
    }

    private static let queryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))
}
