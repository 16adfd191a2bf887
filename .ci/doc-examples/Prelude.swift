// The names a documentation example may use without declaring them. Each ```swift block of README.md
// and of every `///` comment under Sources/ is compiled on its own as the top-level code of a
// `main.swift` that imports Foundation, the library modules (RiffleKit, RiffleTUI, RiffleBrowser,
// DemoServer) and this module, so
// a block may declare types and extensions, `await`, `try` and loop over sequences as a program does.
// A name a block declares itself shadows the one here.
import Foundation
import RiffleKit

/// An API's base URL.
public let api = URL(string: "https://api.example.com")!
/// A client for `api`.
public let client = Client(Client.Configuration(baseURL: api))
/// Bytes to upload: a photo, a video, a file.
public let jpeg = Data([0xFF, 0xD8, 0xFF, 0xD9])
public let video = Data(count: 1024)
public let bytes = Data("hello".utf8)
/// Bytes that came from somewhere: a response body, a file.
public let data = Data(#"{"items": []}"#.utf8)
/// A user's API token.
public let token = "token-from-the-login"
