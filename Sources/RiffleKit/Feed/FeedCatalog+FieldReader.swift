import Foundation

/// Reads one feed's fields, throwing the first problem as a `FeedCatalog.Error` naming file, feed and field.
struct FieldReader {
    let file: String
    let feed: String
    /// The presets a feed may name; nil when none may be named.
    var presets: FeedCatalog? = nil

    static let feedFields: Set = ["description", "url", "argument", "pagination", "items", "fields", "headers", "query", "secrets", "envelope", "maxAge", "comments", "hide"]

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

    /// The `headers` object: each name an HTTP token, each value without a line break or NUL, which
    /// would split the request. Said now, naming the header, rather than at every request.
    func headers(_ object: JSONObject) throws(FeedCatalog.Error) -> [String: String] {
        let headers = try strings(object, "headers")
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
            guard !name.isEmpty, name.utf8.allSatisfy(Self.isTokenByte) else {
                throw problem("headers.\(name)", "not a header name (letters, digits and !#$%&'*+-.^_`|~ only)")
            }
            if value.utf8.contains(where: { $0 == 10 || $0 == 13 || $0 == 0 }) {
                throw problem("headers.\(name)", "holds a line break or NUL, which would split the request")
            }
        }
        return headers
    }

    /// RFC 9110's `tchar`: what a header name is made of.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) || "!#$%&'*+-.^_`|~".utf8.contains(byte)
    }

    /// The fields a feed that names a preset may set over the preset's.
    static let presetFields: Set = ["preset", "description", "pagination", "items", "fields", "headers", "query", "secrets", "envelope",
                                    "maxAge", "comments", "hide"]

    mutating func definition(named name: String, from value: JSONValue) throws(FeedCatalog.Error) -> FeedDefinition {
        // One line: what `riffle FEED` takes, a preset (with its argument) or a URL.
        if let text = value.stringValue {
            if text.contains("://") { return try definition(named: name, from: .object(JSONObject([("url", .string(text))]))) }
            return try presetDefinition(named: name, reference: text, field: "")
        }
        if let object = value.objectValue, object["preset"] != nil {
            return try presetDefinition(named: name, overriding: try self.object(value, "", allowed: Self.presetFields))
        }
        guard value.objectValue != nil else { throw problem("(value)", "expected a preset, a URL or an object, got \(value.kind)") }
        let object = try object(value, "", allowed: Self.feedFields)
        guard let template = try string(object, "url", required: true) else { throw problem("url", "missing") }
        let argument = try string(object, "argument")
        if argument != nil, !template.contains(FeedDefinition.argumentPlaceholder) {
            throw problem("url", "has no {arg} placeholder for the argument")
        }
        if argument == nil, template.contains(FeedDefinition.argumentPlaceholder) {
            throw problem("argument", "missing: the url has {arg}, so say what the argument is (e.g. \"owner/repo\")")
        }
        let headers = try headers(object)
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
            pagination: try pagination(object["pagination"], template: template), itemPath: try path(object, "items"),
            fields: try fields(object["fields"]), headers: headers, query: query,
            envelope: try envelope(object["envelope"]), maxAge: try maxAge(object["maxAge"]), comments: try comments(object["comments"]))
        definition.secrets = try secrets(object["secrets"], query: query)
        definition.hide = try hide(object["hide"])
        // Build the feed once with a sample argument so a bad URL is reported now, naming the field.
        do { _ = try definition.feed(argument: argument == nil ? nil : "sample") } catch {
            if case .template(_, let templateError) = error { throw problem("url", templateError.description) }
        }
        return definition
    }

    /// - Parameter template: the entry's URL, whose placeholders say the style when `value` is absent.
    func pagination(_ value: JSONValue?, template: String? = nil) throws(FeedCatalog.Error) -> Pagination {
        guard let value else { return template.map { Pagination.implied(by: $0) } ?? Pagination(.pageNumber(firstPage: 1)) }
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

    /// `"hide": ["crypto", "site:example.com"]`: the rules, each read now so a bad one is an error
    /// naming the feed and the rule.
    func hide(_ value: JSONValue?) throws(FeedCatalog.Error) -> [HideRule] {
        try Self.hideRules(value) { problem("hide", $0) }
    }

    /// The rules of a `hide` array; `problem` makes the error of a bad one (or of the array itself).
    static func hideRules(_ value: JSONValue?, problem: (String) -> FeedCatalog.Error) throws(FeedCatalog.Error) -> [HideRule] {
        guard let value else { return [] }
        guard let entries = value.arrayValue else { throw problem("expected an array of rules, got \(value.kind)") }
        var rules: [HideRule] = []
        for entry in entries {
            guard let text = entry.stringValue else { throw problem("expected each rule as a string, got \(entry.kind)") }
            do { rules.append(try HideRule(text)) } catch { throw problem(error.description) }
        }
        return rules
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
        let object = try object(value, "comments", allowed: ["url", "page", "items", "children", "author", "text", "time", "depth", "more", "id",
                                                                   "moderator", "permalink", "expand"])
        guard let url = try string(object, "url", in: "comments", required: true),
              let text = try string(object, "text", in: "comments", required: true) else { throw problem("comments", "missing") }
        let page = try string(object, "page", in: "comments"), permalink = try string(object, "permalink", in: "comments")
        for (field, template) in [("url", url), ("page", page), ("permalink", permalink)] {
            guard let template, !CommentRules.isUsable(template) else { continue }
            let into = field == "permalink" ? "the comment (then the item)" : "the item"
            throw problem("comments.\(field)", "expected an http(s) URL with {path} placeholders into \(into), got '\(template)'")
        }
        let rules = CommentRules(url: url, page: page, items: try path(object, "items", in: "comments"),
                                 children: try path(object, "children", in: "comments"), author: try path(object, "author", in: "comments"),
                                 text: JSONPath(text), time: try path(object, "time", in: "comments"),
                                 depth: try path(object, "depth", in: "comments"), more: try path(object, "more", in: "comments"),
                                 id: try path(object, "id", in: "comments"), moderator: try path(object, "moderator", in: "comments"),
                                 permalink: permalink, expand: try expansion(object["expand"]))
        if rules.children != nil, rules.depth != nil { throw problem("comments.depth", "give either children (nested) or depth (a flat list), not both") }
        if rules.expand != nil, rules.more == nil { throw problem("comments.expand", "needs comments.more, the path that tells a stub") }
        return rules
    }

    /// How "more" stubs are expanded (`comments.expand`).
    func expansion(_ value: JSONValue?) throws(FeedCatalog.Error) -> CommentRules.Expansion? {
        guard let value else { return nil }
        let object = try object(value, "comments.expand", allowed: ["url", "thread", "items", "parent", "batch"])
        guard let url = try string(object, "url", in: "comments.expand", required: true),
              let parent = try path(object, "parent", in: "comments.expand", required: true) else { throw problem("comments.expand", "missing") }
        let thread = try string(object, "thread", in: "comments.expand")
        for (field, template) in [("url", url), ("thread", thread)] {
            guard let template, !CommentRules.isUsable(template) else { continue }
            throw problem("comments.expand.\(field)", "expected an http(s) URL with {path} placeholders (the stub's {stub.PATH}, {parent}), got '\(template)'")
        }
        var batch = 100
        if let entry = object["batch"] {
            guard let number = entry.doubleValue, number == number.rounded(), number >= 1, number < 1e6 else {
                throw problem("comments.expand.batch", "expected a whole number ≥ 1, got \(entry.scalarText ?? entry.kind)")
            }
            batch = Int(number)
        }
        return CommentRules.Expansion(url: url, thread: thread, items: try path(object, "items", in: "comments.expand"), parent: parent, batch: batch)
    }

    /// Seconds as a number, or text such as "90s", "15m", "2h", "1d".
    func maxAge(_ value: JSONValue?) throws(FeedCatalog.Error) -> TimeInterval? {
        guard let value else { return nil }
        if let seconds = value.doubleValue, seconds >= 0 { return seconds }
        if let text = value.stringValue, let seconds = DurationText.seconds(text) { return seconds }
        throw problem("maxAge", "expected seconds or text like \"15m\", \"2h\", \"1d\", got \(value.scalarText.map { "'\($0)'" } ?? value.kind)")
    }

    /// The preset `reference` names (`reddit:rust`: the preset with its argument in its URL, so the
    /// feed takes none; `reddit`: the preset as it is), called `name`.
    func presetDefinition(named name: String, reference: String, field: String) throws(FeedCatalog.Error) -> FeedDefinition {
        let field = field.isEmpty ? "(value)" : field
        guard let presets else { throw problem(field, "a preset cannot name a preset") }
        let presetName = reference.split(separator: ":", maxSplits: 1).first.map(String.init) ?? reference
        let argument = reference.contains(":") ? String(reference.drop { $0 != ":" }.dropFirst()) : nil
        guard var definition = presets[presetName] else {
            throw problem(field, "'\(reference)' is not a preset or a URL (presets: \(presets.definitions.map(\.usage).joined(separator: ", ")))")
        }
        if let argument {
            do { _ = try definition.feed(argument: argument) } catch { throw problem(field, error.description) }
            definition.template = definition.template.replacingOccurrences(of: FeedDefinition.argumentPlaceholder, with: argument)
            definition.argument = nil
        }
        definition.name = name
        definition.preset = reference
        return definition
    }

    /// `{"preset": "reddit:rust", ...}`: the preset, with what the object sets over it. A header or
    /// query parameter, and a part of `fields`, is set one by one (`null` leaves a part to be found
    /// again); `comments` may be `false` (none) or `true` (the preset's).
    func presetDefinition(named name: String, overriding object: JSONObject) throws(FeedCatalog.Error) -> FeedDefinition {
        guard let reference = try string(object, "preset") else { throw problem("preset", "missing") }
        var definition = try presetDefinition(named: name, reference: reference, field: "preset")
        if let description = try string(object, "description") { definition.description = description }
        if object["pagination"] != nil { definition.pagination = try pagination(object["pagination"]) }
        if let items = try path(object, "items") { definition.itemPath = items }
        if let value = object["fields"] { definition.fields = try fields(value, over: definition.fields) }
        definition.headers.merge(try headers(object)) { $1 }
        definition.query.merge(try strings(object, "query", numbers: true)) { $1 }
        if object["secrets"] != nil { definition.secrets = try secrets(object["secrets"], query: definition.query) }
        if object["envelope"] != nil { definition.envelope = try envelope(object["envelope"]) }
        if object["maxAge"] != nil { definition.maxAge = try maxAge(object["maxAge"]) }
        definition.hide = try hide(object["hide"])
        switch object["comments"] {
        case .bool(false)?: definition.comments = nil
        case .bool(true)?, nil: break
        case let value?: definition.comments = try comments(value)
        }
        return definition
    }

    /// `fields` set part by part over `base`: a path replaces the part's, `null` clears it.
    func fields(_ value: JSONValue, over base: FieldMapping) throws(FeedCatalog.Error) -> FieldMapping {
        let object = try object(value, "fields", allowed: ["title", "subtitle", "link", "id", "time", "author", "score", "comments"])
        var mapping = base
        let cleared = Set(object.members.filter { $0.value == .null }.map(\.key))
        let given = try fields(.object(JSONObject(object.members.filter { $0.value != .null })))
        for part in FieldPlan.Part.allCases where cleared.contains(part.description) || given[part] != nil {
            mapping[part] = given[part]
        }
        if cleared.contains("subtitle") { mapping.subtitle = [] }
        if !given.subtitle.isEmpty { mapping.subtitle = given.subtitle }
        return mapping
    }
}
