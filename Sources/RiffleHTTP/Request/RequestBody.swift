import Foundation
import RiffleJSON

/// What a request sends: bytes and their `Content-Type`, built by one of the factories.
///
/// ```swift
/// let form: RequestBody = .form(["q": "swift", "page": "2"])
/// let json: RequestBody = .json(["name": "Ada", "tags": ["math"]])
/// let upload: RequestBody = .multipart(MultipartForm(fields: ["title": "Notes"],
///     files: [.init(name: "file", filename: "a.txt", contentType: "text/plain", data: bytes)]))
/// let raw: RequestBody = .raw(bytes, contentType: "application/octet-stream")
/// let search = Endpoint<JSONValue>(.post, "/search", body: form)
/// ```
public struct RequestBody: Sendable, Equatable {
    /// The bytes sent.
    public var data: Data
    /// The `Content-Type` header sent with them (an endpoint's own header wins).
    public var contentType: String

    /// Bytes sent as they are.
    public static func raw(_ data: Data, contentType: String) -> RequestBody {
        RequestBody(data: data, contentType: contentType)
    }

    /// `application/x-www-form-urlencoded` fields, in order.
    public static func form(_ fields: KeyValuePairs<String, String>) -> RequestBody {
        let text = fields.map { "\(formEscape($0.key))=\(formEscape($0.value))" }.joined(separator: "&")
        return RequestBody(data: Data(text.utf8), contentType: "application/x-www-form-urlencoded")
    }

    /// A JSON document.
    public static func json(_ value: JSONValue) -> RequestBody {
        RequestBody(data: JSONWriter.data(value), contentType: "application/json")
    }

    /// A JSON body from an `Encodable` value.
    /// - Throws: `RiffleError.transport` when the value cannot be encoded.
    public static func json(encoding value: some Encodable) throws(RiffleError) -> RequestBody {
        do {
            return RequestBody(data: try JSONEncoder().encode(value), contentType: "application/json")
        } catch {
            throw .transport("cannot encode the request body: \(RiffleError.oneLine(String(describing: error)))")
        }
    }

    /// `multipart/form-data` with fields and files.
    public static func multipart(_ form: MultipartForm) -> RequestBody {
        RequestBody(data: form.encoded, contentType: form.contentType)
    }

    // RFC 1866 form encoding: everything but unreserved characters is percent-encoded, space as "+".
    static func formEscape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._* ")
        let escaped = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        return escaped.replacingOccurrences(of: " ", with: "+")
    }
}
