import Foundation
import RiffleJSON

/// A `multipart/form-data` body (RFC 7578): text fields, then files.
///
/// ```swift
/// let form = MultipartForm(fields: ["title": "Holiday"],
///                          files: [.init(name: "photo", filename: "a.jpg", contentType: "image/jpeg", data: jpeg)])
/// let upload = Endpoint<JSONValue>(.post, "/photos", body: .multipart(form))
/// ```
public struct MultipartForm: Sendable, Equatable {
    /// One file part.
    public struct File: Sendable, Equatable {
        /// The form field name.
        public var name: String
        /// The file name the server sees.
        public var filename: String
        /// The part's `Content-Type`.
        public var contentType: String
        /// The file's bytes.
        public var data: Data

        /// A file part: the form field `name`, the file's name and type, and its bytes.
        public init(name: String, filename: String, contentType: String = "application/octet-stream", data: Data) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.data = data
        }
    }

    /// Text fields, in order.
    public var fields: [(name: String, value: String)]
    /// File parts, in order, after the fields.
    public var files: [File]
    /// The separator between parts; random so it cannot occur in ordinary content.
    public var boundary: String

    /// A form of text `fields` (in key order) then `files`; `boundary` defaults to a random one.
    public init(fields: KeyValuePairs<String, String> = [:], files: [File] = [],
                boundary: String = "riffle-\(UUID().uuidString)") {
        self.fields = fields.map { (name: $0.key, value: $0.value) }
        self.files = files
        self.boundary = boundary
    }

    /// `multipart/form-data; boundary=...`.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body bytes.
    public var encoded: Data {
        var out = Data()
        func line(_ text: String) { out.append(Data((text + "\r\n").utf8)) }
        for field in fields {
            line("--\(boundary)")
            line("Content-Disposition: form-data; name=\"\(Self.quoted(field.name))\"")
            line("")
            line(field.value)
        }
        for file in files {
            line("--\(boundary)")
            line("Content-Disposition: form-data; name=\"\(Self.quoted(file.name))\"; filename=\"\(Self.quoted(file.filename))\"")
            line("Content-Type: \(file.contentType)")
            line("")
            out.append(file.data)
            line("")
        }
        line("--\(boundary)--")
        return out
    }

    // RFC 7578 §4.2: quotes and line breaks in names are percent-encoded, as browsers do.
    static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "%22").replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Whether both forms have the same parts and boundary.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.boundary == rhs.boundary && lhs.files == rhs.files
            && lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }
}
