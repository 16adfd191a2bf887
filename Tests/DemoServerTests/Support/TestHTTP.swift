import Foundation

/// One request on a connection of its own through `RawClient`: the tests see exactly the bytes the
/// server sends, and no HTTP library stands between them and the server. Every read gives up after
/// `RawClient`'s receive timeout.
enum TestHTTP {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// `GET url` (its path and query) with `headers`; the reply, body and all.
    static func get(_ url: URL, headers: [String: String] = [:]) throws -> RawClient.Reply {
        guard let port = url.port, let client = RawClient(port: port) else {
            throw Failure(description: "could not connect to \(url): \(String(cString: strerror(errno)))")
        }
        let target = url.path(percentEncoded: true) + (url.query(percentEncoded: true).map { "?" + $0 } ?? "")
        client.send(request("GET", target, headers: headers))
        guard let reply = client.readReply() else { throw Failure(description: "no reply to GET \(target)") }
        return reply
    }

    /// The text of a request with `Host` and `headers`.
    static func request(_ method: String, _ target: String, headers: [String: String] = [:], body: Data? = nil) -> String {
        var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { text += "\(name): \(value)\r\n" }
        if let body { text += "Content-Length: \(body.count)\r\n" }
        return text + "\r\n"
    }
}
