/// Which fields of an item the browser shows, as dotted paths into the item (`user.login`).
/// A nil path (or an empty `subtitle`) leaves that part to `ItemExtractor`'s automatic guesses.
public struct FieldMapping: Sendable, Hashable {
    /// The line shown in the list.
    public var title: String?
    /// Short facts shown dimmer after the title, in order.
    public var subtitle: [String]
    /// The item's link.
    public var link: String?
    /// The item's id.
    public var id: String?
    /// When the item was created (ISO 8601 text or Unix seconds).
    public var time: String?

    /// - Parameters: dotted paths into an item; nil (or `[]`) leaves that part to the automatic guesses.
    public init(title: String? = nil, subtitle: [String] = [], link: String? = nil, id: String? = nil, time: String? = nil) {
        self.title = title
        self.subtitle = subtitle
        self.link = link
        self.id = id
        self.time = time
    }

    /// Whether nothing is mapped.
    public var isEmpty: Bool { self == FieldMapping() }
}

/// How an API reports failure inside a 2xx answer, e.g. Slack's `{"ok": false, "error": "invalid_auth"}`.
public struct Envelope: Sendable, Hashable {
    /// A dotted path to a boolean that is `false` when the request failed.
    public var successPath: String
    /// A dotted path to the failure's message.
    public var errorPath: String?

    /// - Parameters:
    ///   - successPath: where the `false` that marks a failure is.
    ///   - errorPath: where the message is.
    public init(successPath: String, errorPath: String? = nil) {
        self.successPath = successPath
        self.errorPath = errorPath
    }

    /// The failure `document` reports, or nil when it reports none.
    public func failure(in document: JSONDocument) -> RiffleError? {
        guard document.scalar(atPath: successPath)?.boolValue == false else { return nil }
        let message = errorPath.flatMap { document.scalar(atPath: $0)?.scalarText } ?? "\(successPath) is false"
        return .envelope(message: RiffleError.oneLine(message))
    }
}
