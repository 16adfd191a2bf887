extension ScriptedListener {
    /// A plain-HTTP port that answers whatever arrives (a TLS ClientHello included) with `400 Bad Request`
    /// and closes, as nginx and most servers do. HTTPServer instead waits for a request head that a TLS
    /// handshake never sends, which would look like a timeout rather than a TLS failure.
    package static func plainHTTP() throws -> ScriptedListener {
        try ScriptedListener { connection, _ in
            connection.readSome()
            connection.write("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        }
    }
}
