import Foundation

/// Reads one feed's fields, throwing the first problem as a `FeedCatalog.Error` naming file, feed and field.
struct FieldReader {
    let file: String
    let feed: String

    static let feedFields: Set = ["description", "url", "argument", "pagination", "items", "fields", "headers", "query", "secrets", "envelope", "maxAge", "comments"]

    func problem(_ field: String, _ text: String) -> FeedCatalog.Error {
        .field(file: file, feed: feed, field: field, problem: text)
    }

    func object(_ value: JSONValue, _ field: String, allowed: Set<String>) throws(FeedCatalog.Error) -> JSONObject {
        guard let object = value.objectValue else { throw problem(field, "expected an object, got \(value.kind)") }
        if let unknown = object.keys.first(where: { !allowed.contains($0) }) {
            throw problem(field.isEmpty ? unknown : "\(field).\(unknown)",
                          "unknown field (expected one of \(allowed.sorted().joined(separator: ", ")))")
        }
        return object
    }

    func string(_ object: JSONObject, _ key: String, in parent: String = "", required: Bool = false) throws(FeedCatalog.Error) -> String? {
        let field = parent.isEmpty ? key : "\(parent).\(key)"
        guard let value = object[key] else {
            if required { throw problem(field, "missing") }
            return nil
        }
        guard let text = value.stringValue else { throw problem(field, "expected a string, got \(value.kind)") }
        return text
    }

    /// A dotted path (`JSONPath`) written as a string.
    func path(_ object: JSONObject, _ key: String, in parent: String = "", required: Bool = false) throws(FeedCatalog.Error) -> JSONPath? {
        try string(object, key, in: parent, required: required).map { JSONPath($0) }
    }

    /// A string-to-string object; `numbers` also accepts numbers (`"per_page": 30` in a query).
    func strings(_ object: JSONObject, _ key: String, numbers: Bool = false) throws(FeedCatalog.Error) -> [String: String] {
        guard let value = object[key] else { return [:] }
        var result: [String: String] = [:]
        for (name, entry) in try self.object(value, key, allowed: Set(value.objectValue?.keys ?? [])).members {
            guard let text = entry.scalarText, entry.stringValue != nil || (numbers && entry.doubleValue != nil) else {
                throw problem("\(key).\(name)", "expected a string, got \(entry.kind)")
            }
            result[name] = text
        }
        return result
    }

    mutating func definition(named name: String, from value: JSONValue) throws(FeedCatalog.Error) -> FeedDefinition {
        let object = try object(value, "", allowed: Self.feedFields)
        guard let template = try string(object, "url", required: true) else { throw problem("url", "missing") }
        let argument = try string(object, "argument")
        if argument != nil, !template.contains(FeedDefinition.argumentPlaceholder) {
            throw problem("url", "has no {arg} placeholder for the argument")
        }
        if argument == nil, template.contains(FeedDefinition.argumentPlaceholder) {
            throw problem("argument", "missing: the url has {arg}, so say what the argument is (e.g. \"owner/repo\")")
        }
        let headers = try strings(object, "headers")
        let query = try strings(object, "query", numbers: true)
        for (field, values) in [("headers", headers), ("query", query)] {
            for (key, value) in values {
                for (variable, _) in Feed.variables(in: value) where variable.isEmpty || !variable.allSatisfy({ $0 == "_" || $0.isLetter || $0.isNumber }) {
                    throw problem("\(field).\(key)", "'${\(variable)}' is not an environment variable name")
                }
            }
        }
        var definition = FeedDefinition(
            name: name, description: try string(object, "description") ?? "", argument: argument, template: template,
            pagination: try pagination(object["pagination"]), itemPath: try path(object, "items"),
            fields: try fields(object["fields"]), headers: headers, query: query,
            envelope: try envelope(object["envelope"]), maxAge: try maxAge(object["maxAge"]), comments: try comments(object["comments"]))
        definition.secrets = try secrets(object["secrets"], query: query)
        // Build the feed once with a sample argument so a bad URL is reported now, naming the field.
        do { _ = try definition.feed(argument: argument == nil ? nil : "sample") } catch {
            if case .template(_, let templateError) = error { throw problem("url", templateError.description) }
        }
        return definition
    }

    func pagination(_ value: JSONValue?) throws(FeedCatalog.Error) -> Pagination {
        guard let value else { return Pagination(.pageNumber(firstPage: 1)) }
        let object = try object(value, "pagination", allowed: ["style", "first", "limit", "path", "param", "hasMore"])
        let hasMore = try string(object, "hasMore", in: "pagination")
        func integer(_ key: String, default fallback: Int, minimum: Int) throws(FeedCatalog.Error) -> Int {
            guard let entry = object[key] else { return fallback }
            guard let number = entry.doubleValue, number == number.rounded(), number >= Double(minimum), number < 1e9 else {
                throw problem("pagination.\(key)", "expected a whole number ≥ \(minimum), got \(entry.scalarText ?? entry.kind)")
            }
            return Int(number)
        }
        switch try string(object, "style", in: "pagination") ?? "page" {
        case "page": return Pagination(.pageNumber(firstPage: try integer("first", default: 1, minimum: 0)), hasMorePath: hasMore)
        case "offset": return Pagination(.offset(limit: try integer("limit", default: 25, minimum: 1)), hasMorePath: hasMore)
        case "cursor":
            guard let path = try string(object, "path", in: "pagination", required: true),
                  let parameter = try string(object, "param", in: "pagination", required: true) else { throw problem("pagination", "missing") }
            return Pagination(.cursor(path: path, parameter: parameter), hasMorePath: hasMore)
        case "link": return Pagination(.linkHeader, hasMorePath: hasMore)
        case let other: throw problem("pagination.style", "expected one of page, offset, cursor, link, got '\(other)'")
        }
    }

    func fields(_ value: JSONValue?) throws(FeedCatalog.Error) -> FieldMapping {
        guard let value else { return FieldMapping() }
        let object = try object(value, "fields", allowed: ["title", "subtitle", "link", "id", "time", "author", "score", "comments"])
        var subtitle: [JSONPath] = []
        if let entry = object["subtitle"] {
            guard let texts = entry.arrayValue?.compactMap(\.stringValue), texts.count == entry.arrayValue?.count else {
                throw problem("fields.subtitle", "expected an array of strings, got \(entry.kind)")
            }
            subtitle = texts.map { JSONPath($0) }
        }
        return FieldMapping(title: try path(object, "title", in: "fields"), subtitle: subtitle,
                            link: try path(object, "link", in: "fields"), id: try path(object, "id", in: "fields"),
                            time: try path(object, "time", in: "fields"), author: try path(object, "author", in: "fields"),
                            score: try path(object, "score", in: "fields"), comments: try path(object, "comments", in: "fields"))
    }

    /// The names of `query` parameters whose values are credentials.
    func secrets(_ value: JSONValue?, query: [String: String]) throws(FeedCatalog.Error) -> Set<String>? {
        guard let value else { return nil }
        guard let names = value.arrayValue?.compactMap(\.stringValue), names.count == value.arrayValue?.count else {
            throw problem("secrets", "expected an array of query parameter names, got \(value.kind)")
        }
        if let unknown = names.first(where: { query[$0] == nil }) {
            throw problem("secrets", "'\(unknown)' is not a parameter of this feed's query")
        }
        return Set(names)
    }

    /// `{"success": "ok", "error": "error.message"}`, optionally `"value": 200` (default `true`): an
    /// `EnvelopeRule` whose missing flag passes, so only an answer that says it failed is an error.
    func envelope(_ value: JSONValue?) throws(FeedCatalog.Error) -> EnvelopeRule? {
        guard let value else { return nil }
        let object = try object(value, "envelope", allowed: ["success", "error", "value"])
        guard let success = try string(object, "success", in: "envelope", required: true) else { return nil }
        var successValue: JSONValue = true
        if let given = object["value"] {
            guard given.scalarText != nil else { throw problem("envelope.value", "expected a string, number or boolean, got \(given.kind)") }
            successValue = given
        }
        let defaultPaths: [JSONPath] = ["error", "message", "msg"]
        let messagePaths = try string(object, "error", in: "envelope").map { [JSONPath($0)] } ?? defaultPaths
        return EnvelopeRule(successPath: JSONPath(success), successValue: successValue, payloadPath: [],
                            messagePaths: messagePaths, missingFlag: .success)
    }

    func comments(_ value: JSONValue?) throws(FeedCatalog.Error) -> CommentRules? {
        guard let value else { return nil }
        let object = try object(value, "comments", allowed: ["url", "page", "items", "children", "author", "text", "time", "depth", "more", "id", "moderator"])
        guard let url = try string(object, "url", in: "comments", required: true),
              let text = try string(object, "text", in: "comments", required: true) else { throw problem("comments", "missing") }
        let page = try string(object, "page", in: "comments")
        for (field, template) in [("url", url), ("page", page)] {
            guard let template, !CommentRules.isUsable(template) else { continue }
            throw problem("comments.\(field)", "expected an http(s) URL with {path} placeholders into the item, got '\(template)'")
        }
        let rules = CommentRules(url: url, page: page, items: try path(object, "items", in: "comments"),
                                 children: try path(object, "children", in: "comments"), author: try path(object, "author", in: "comments"),
                                 text: JSONPath(text), time: try path(object, "time", in: "comments"),
                                 depth: try path(object, "depth", in: "comments"), more: try path(object, "more", in: "comments"),
                                 id: try path(object, "id", in: "comments"), moderator: try path(object, "moderator", in: "comments"))
        if rules.children != nil, rules.depth != nil { throw problem("comments.depth", "give either children (nested) or depth (a flat list), not both") }
        return rules
    }

    /// Seconds as a number, or text such as "90s", "15m", "2h", "1d".
    func maxAge(_ value: JSONValue?) throws(FeedCatalog.Error) -> TimeInterval? {
        guard let value else { return nil }
        if let seconds = value.doubleValue, seconds >= 0 { return seconds }
        if let text = value.stringValue, let seconds = DurationText.seconds(text) { return seconds }
        throw problem("maxAge", "expected seconds or text like \"15m\", \"2h\", \"1d\", got \(value.scalarText.map { "'\($0)'" } ?? value.kind)")
    }
}
