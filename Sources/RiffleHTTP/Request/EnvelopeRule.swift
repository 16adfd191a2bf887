import Foundation
import RiffleJSON

/// How answers that come in an envelope, such as `{"ok": true, "result": ...}`, are unwrapped: the one
/// envelope type, for a client's endpoints (`Client.Configuration.envelope`) and a feed's pages
/// (`Feed.envelope`, feeds.json's `"envelope"`) alike.
///
/// When the flag at `successPath` matches `successValue` the payload is the value at `payloadPath`
/// (the whole object when `payloadPath` is empty); otherwise the answer is `RiffleError.envelope(message:)`
/// with the server's message: the first of `messagePaths` that holds a non-empty one, else the flag
/// itself ("code is 500").
///
/// Flags compare the way the servers write them: `true`, `1` and `"1"` are alike (and `false`, `0`,
/// `"0"`), `200` matches `"200"` and `200.0`; other strings compare exactly. The server's message wins
/// on any HTTP status: a failure envelope on a 400 or a 500 answer is `.envelope` with its text rather
/// than "HTTP 400"; an error answer with no message in it stays `.httpStatus`.
///
/// ```swift
/// var configuration = Client.Configuration(baseURL: api)
/// configuration.envelope = .okResult                      // {"ok": true, "result": ...}
/// configuration.envelope = EnvelopeRule(successPath: ["meta", "status"], successValue: "success",
///                                       payloadPath: ["body"], messagePaths: [["meta", "error"]])
/// ```
public struct EnvelopeRule: Sendable, Hashable {
    /// Where the success flag is, e.g. `["ok"]` (or `"meta.status"`).
    public var successPath: JSONPath
    /// The flag's value on success, e.g. `true`, `200` or `1`.
    public var successValue: JSONValue
    /// Where the payload is; empty: the envelope object itself is the payload.
    public var payloadPath: JSONPath
    /// Where the failure message may be, tried in order; an empty or null message counts as none.
    public var messagePaths: [JSONPath]
    /// What an answer without the flag (or with a null one) is.
    public var missingFlag: MissingFlag

    /// What an answer whose flag is absent or null means.
    public enum MissingFlag: Sendable, Hashable {
        /// Not an envelope the rule knows: `RiffleError.validation` naming the flag (the default).
        case failure
        /// Success: the API adds the flag only when something went wrong (feeds.json's envelopes).
        case success
    }

    /// A rule: success when `successPath` holds `successValue` (as servers write it), payload at `payloadPath`, message from the first of `messagePaths`.
    public init(successPath: JSONPath, successValue: JSONValue, payloadPath: JSONPath,
                messagePaths: [JSONPath] = [["error"], ["message"], ["msg"]], missingFlag: MissingFlag = .failure) {
        self.successPath = successPath
        self.successValue = successValue
        self.payloadPath = payloadPath
        self.messagePaths = messagePaths
        self.missingFlag = missingFlag
    }

    /// `{"ok": true, "result": ...}`; failures `{"ok": false, "error": "..."}` (Slack style).
    public static let okResult = EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: ["result"])
    /// `{"code": 200, "data": ...}`; failures `{"code": 404, "message": "..."}`.
    public static let codeData = EnvelopeRule(successPath: ["code"], successValue: 200, payloadPath: ["data"])
    /// `{"status": 1, ...fields}`: the payload is the object itself; failures `{"status": 0, "msg": "..."}`.
    public static let statusFlag = EnvelopeRule(successPath: ["status"], successValue: 1, payloadPath: [])

    /// The payload of `document`, or the failure it reports.
    public func unwrap(_ document: JSONValue) throws(RiffleError) -> JSONValue {
        let root = document.objectValue == nil ? JSONShape.name(of: document) : nil
        if let failure = failure(in: { document.value(at: $0) }, notObject: root) { throw failure }
        guard let payload = document.value(at: payloadPath) else {
            throw .validation(path: "$." + payloadPath.description, expected: "payload", actual: "missing")
        }
        return payload
    }

    /// The failure a page read on the tape reports, or nil when it reports success (the payload stays
    /// where it is: a page's items are found in the whole document).
    package func failure(in document: JSONDocument) -> RiffleError? {
        let root: String? = document.withReader { (reader: TapeReader) in
            switch reader.kind(0) {
            case .object: nil
            case .array: "array"
            case .string: "string"
            case .number: "number"
            case .true, .false: "boolean"
            case .null: "null"
            }
        }
        return failure(in: { path in
            document.withReader { (reader: TapeReader) in reader.value(0, at: path).map { reader.value($0) } }
        }, notObject: root)
    }

    /// The server's own words in an answer with an error status: `.envelope` when its body is a failure
    /// envelope that carries a message, else nil (the status says more than a bare flag).
    func message(inErrorAnswer body: Data) -> RiffleError? {
        guard let document = try? JSONParser.parse(body),
              case .failure(let message?, _) = verdict(lookup: { document.value(at: $0) }) else { return nil }
        return .envelope(message: message)
    }

    /// What the flag and message say, read through `lookup` (the value at a path, or nil).
    enum Verdict {
        case success
        /// `message`: the first non-empty one found; `flag`: the flag as written, for when there is none.
        case failure(message: String?, flag: String)
        case missingFlag
    }

    func verdict(lookup: (JSONPath) -> JSONValue?) -> Verdict {
        guard let flag = lookup(successPath), !flag.isNull else {
            return missingFlag == .success ? .success : .missingFlag
        }
        if Self.flagKey(flag) == Self.flagKey(successValue) { return .success }
        for path in messagePaths {
            guard let value = lookup(path), !value.isNull else { continue }
            let text = RiffleError.oneLine(value.scalarText ?? JSONWriter.string(value))
            if !text.trimmingCharacters(in: .whitespaces).isEmpty { return .failure(message: text, flag: JSONWriter.string(flag)) }
        }
        return .failure(message: nil, flag: JSONWriter.string(flag))
    }

    /// - Parameter notObject: the document's kind when it is not an object, for the error.
    private func failure(in lookup: (JSONPath) -> JSONValue?, notObject: String?) -> RiffleError? {
        let keyName = successPath.description
        switch verdict(lookup: lookup) {
        case .success:
            return nil
        case .failure(let message, let flag):
            return .envelope(message: message ?? "\(keyName) is \(flag)")
        case .missingFlag:
            return .validation(path: "$.\(keyName)", expected: "envelope flag \(JSONWriter.string(successValue))",
                               actual: notObject ?? "missing")
        }
    }

    /// What a flag is compared by: numbers, numeric strings and booleans by value (`true` is 1), other
    /// strings by their text, anything else by its JSON.
    enum FlagKey: Equatable {
        case number(Double)
        case text(String)
    }

    static func flagKey(_ value: JSONValue) -> FlagKey {
        switch value {
        case .bool(let flag): return .number(flag ? 1 : 0)
        case .number(let text): return Double(text).map(FlagKey.number) ?? .text(text)
        case .string(let text):
            let trimmed = text.trimmingCharacters(in: .whitespaces)
            if let number = Double(trimmed), number.isFinite { return .number(number) }
            switch trimmed.lowercased() {
            case "true": return .number(1)
            case "false": return .number(0)
            default: return .text(text)
            }
        default: return .text(JSONWriter.string(value))
        }
    }

    /// Whether two rules read the same paths and expect the same value.
    public static func == (a: EnvelopeRule, b: EnvelopeRule) -> Bool {
        a.successPath == b.successPath && a.successValue == b.successValue && a.payloadPath == b.payloadPath
            && a.messagePaths == b.messagePaths && a.missingFlag == b.missingFlag
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(successPath)
        hasher.combine(JSONWriter.string(successValue))
        hasher.combine(payloadPath)
        hasher.combine(messagePaths)
        hasher.combine(missingFlag)
    }
}

extension JSONWriter {
    static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }
}
