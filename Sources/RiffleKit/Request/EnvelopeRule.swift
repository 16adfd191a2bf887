/// How a client unwraps answers that come in an envelope, such as `{"ok": true, "result": ...}`.
///
/// When the value at `successPath` equals `successValue` the payload is the value at `payloadPath`
/// (the whole object when `payloadPath` is empty); otherwise the answer is
/// `RiffleError.envelope(message:)` with the server's message from the first of `messagePaths` found.
///
/// ```swift
/// var configuration = Client.Configuration(baseURL: api)
/// configuration.envelope = .okResult                      // {"ok": true, "result": ...}
/// configuration.envelope = EnvelopeRule(successPath: ["meta", "status"], successValue: "success",
///                                       payloadPath: ["body"], messagePaths: [["meta", "error"]])
/// ```
public struct EnvelopeRule: Sendable, Equatable {
    /// Keys leading to the success flag, e.g. `["ok"]`.
    public var successPath: [String]
    /// The flag's value on success, e.g. `true`, `200` or `1`.
    public var successValue: JSONValue
    /// Keys leading to the payload; empty: the envelope object itself is the payload.
    public var payloadPath: [String]
    /// Where the failure message may be, tried in order.
    public var messagePaths: [[String]]

    public init(successPath: [String], successValue: JSONValue, payloadPath: [String],
                messagePaths: [[String]] = [["error"], ["message"], ["msg"]]) {
        self.successPath = successPath
        self.successValue = successValue
        self.payloadPath = payloadPath
        self.messagePaths = messagePaths
    }

    /// `{"ok": true, "result": ...}`; failures `{"ok": false, "error": "..."}` (Slack style).
    public static let okResult = EnvelopeRule(successPath: ["ok"], successValue: true, payloadPath: ["result"])
    /// `{"code": 200, "data": ...}`; failures `{"code": 404, "message": "..."}`.
    public static let codeData = EnvelopeRule(successPath: ["code"], successValue: 200, payloadPath: ["data"])
    /// `{"status": 1, ...fields}`: the payload is the object itself; failures `{"status": 0, "msg": "..."}`.
    public static let statusFlag = EnvelopeRule(successPath: ["status"], successValue: 1, payloadPath: [])

    /// The payload of `document`, or the failure it reports.
    public func unwrap(_ document: JSONValue) throws(RiffleError) -> JSONValue {
        let keyName = successPath.joined(separator: ".")
        guard let flag = document.value(at: successPath) else {
            throw .validation(path: "$.\(keyName)", expected: "envelope flag \(JSONWriter.string(successValue))",
                              actual: document.objectValue == nil ? JSONShape.name(of: document) : "missing")
        }
        guard Self.same(flag, successValue) else {
            let message = messagePaths.lazy.compactMap { document.value(at: $0) }.first
                .map { $0.scalarText ?? JSONWriter.string($0) } ?? "\(keyName) is \(JSONWriter.string(flag))"
            throw .envelope(message: RiffleError.oneLine(message))
        }
        guard let payload = document.value(at: payloadPath) else {
            throw .validation(path: "$." + payloadPath.joined(separator: "."), expected: "payload", actual: "missing")
        }
        return payload
    }

    // Numbers compare by value so 200 matches 200.0 and "1" written as 1e0.
    private static func same(_ a: JSONValue, _ b: JSONValue) -> Bool {
        if case .number = a, case .number = b { return a.doubleValue == b.doubleValue }
        return a == b
    }
}

extension JSONWriter {
    static func string(_ value: JSONValue) -> String {
        var out = ""
        write(value, into: &out)
        return out
    }
}
