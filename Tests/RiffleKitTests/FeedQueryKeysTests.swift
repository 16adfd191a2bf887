import Foundation
import Testing
@testable import RiffleKit

/// Which query parameters of a feed URL are keys riffle hides (`api_key=***`), and which stay.
@Suite("a key written in a feed URL's query")
struct FeedQueryKeysTests {
    let key = "ab12CD34ef56+gh78/ij90"
    let written = "ab12CD34ef56%2Bgh78%2Fij90"

    @Test func aKeyIsHiddenInTheTemplateAndAWordIsNot() throws {
        let feed = try Feed(template: "https://newsapi.example/v2/everything?q=swift&apiKey=\(written)&page={page}")
        #expect(feed.template == "https://newsapi.example/v2/everything?q=swift&apiKey=***&page={page}")
        #expect(feed.queryKeys == [Feed.QueryKey(name: "apiKey", written: written, value: key)])
        #expect(feed.url(forPage: 2).absoluteString == "https://newsapi.example/v2/everything?q=swift&apiKey=***&page=2")
        #expect(feed.fillingQueryKeys(feed.url(forPage: 2)).absoluteString
            == "https://newsapi.example/v2/everything?q=swift&apiKey=\(written)&page=2")

        // Words and field names under a credential-like name stay; so do references and placeholders.
        for template in ["https://h.example/x?sort_key=created_at&page={page}", "https://h.example/x?cache_key=date&page={page}",
                         "https://h.example/x?pageToken=CAUQAA&page={page}", "https://h.example/x?api_key=&page={page}",
                         "https://h.example/x?token=${API_TOKEN_2024_PRODUCTION}&page={page}", "https://h.example/x?session={page}",
                         "https://h.example/x?q=a1b2c3d4e5f6g7h8&page={page}"] {
            let plain = try Feed(template: template)
            #expect(plain.template == template && plain.queryKeys.isEmpty, "\(template) -> \(plain.template)")
        }
        // Google's `key=`, OpenWeather's `appid`, a signature: keys.
        let google = try Feed(template: "https://www.googleapis.example/youtube/v3/search?part=snippet&key=AIzaSyA1b2C3d4E5f6G7h8I9j0KlMnOpQrStUv&pageToken={page}")
        #expect(google.template.contains("&key=***&") && google.queryKeys.map(\.name) == ["key"])
        let weather = try Feed(template: "https://api.openweather.example/data/2.5/find?appid=0123456789abcdef0123456789abcdef&page={page}")
        #expect(weather.queryKeys.map(\.name) == ["appid"])
        // A name that is a credential's through and through makes any value a key, however short.
        for (name, value) in [("api_key", "abc"), ("apiKey", "DEMO_KEY"), ("key", "date"), ("token", "x1"), ("access_token", "t0k"),
                              ("sig", "ab"), ("password", "hunter2"), ("client_secret", "s3"), ("Subscription-Key", "k")] {
            let short = try Feed(template: "https://h.example/x?q=swift&\(name)=\(value)&page={page}")
            #expect(short.template == "https://h.example/x?q=swift&\(name)=***&page={page}", "\(name)=\(value) -> \(short.template)")
            #expect(short.queryKeys.map(\.value) == [value])
            #expect(Feed.hidingCredentials("https://h.example/x?\(name)=\(value)") == "https://h.example/x?\(name)=***")
        }
        // The feed's `secrets` decide, whatever the value looks like.
        let named = try Feed(template: "https://h.example/x?code=short&page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                             secrets: ["code"])
        #expect(named.template == "https://h.example/x?code=***&page={page}")
        let none = try Feed(template: "https://h.example/x?api_key=0123456789abcdef0123&page={page}", pagination: Pagination(.pageNumber(firstPage: 1)),
                            secrets: [])
        #expect(none.queryKeys.isEmpty)

        // A URL as the user wrote it, kept or shown: its password and its key hidden, the rest as written.
        #expect(Feed.hidingCredentials("https://me:pw@h.example/x?q=a%20b&api_key=\(written)&page={page}")
            == "https://me:***@h.example/x?q=a%20b&api_key=***&page={page}")
        #expect(Feed.hidingCredentials("https://h.example/x?page=2#api_key=\(written)") == "https://h.example/x?page=2#api_key=\(written)")

        // A URL copied from riffle's listings hides a key it does not have.
        let copied = try Feed(template: "https://newsapi.example/v2/everything?apiKey=***&page={page}")
        #expect(copied.queryKeys.isEmpty && copied.missingQueryKeys == ["apiKey"] && copied.urlHoldsCredential)
        #expect(feed.missingQueryKeys.isEmpty && feed.urlHoldsCredential)
        // So does the mark percent-encoded, as a link copied from riffle once gave it: shown as `***`.
        let encoded = try Feed(template: "https://newsapi.example/v2/everything?apiKey=%2A%2A%2A&page={page}")
        #expect(encoded.template == "https://newsapi.example/v2/everything?apiKey=***&page={page}")
        #expect(encoded.queryKeys.isEmpty && encoded.missingQueryKeys == ["apiKey"])
        #expect(Feed.hidingCredentials("https://h.example/x?api_key=%2a%2a%2a&q=%2A%2A%2A") == "https://h.example/x?api_key=***&q=%2A%2A%2A")
        #expect(!(try Feed(template: "https://h.example/x?page={page}")).urlHoldsCredential)
    }


    @Test func aFeedsFileKeepsTheURLWithoutItsKeyAndNamesAVariableForIt() throws {
        let feed = try Feed(template: "https://newsapi.example/v2/everything?q=swift&apiKey=\(written)&page={page}")
        #expect(feed.templateWithoutKeys.template == "https://newsapi.example/v2/everything?q=swift&page={page}")
        #expect(feed.templateWithoutKeys.names == ["apiKey"])
        let alone = try Feed(template: "https://h.example/items?api_key=\(written)", pagination: Pagination(.linkHeader))
        #expect(alone.templateWithoutKeys.template == "https://h.example/items" && alone.templateWithoutKeys.names == ["api_key"])
        let copied = try Feed(template: "https://h.example/items?token=***&page={page}")
        #expect(copied.templateWithoutKeys.template == "https://h.example/items?page={page}")
        let plain = try Feed(template: "https://h.example/items?page={page}")
        #expect(plain.templateWithoutKeys.template == plain.template && plain.templateWithoutKeys.names.isEmpty)

        #expect(Feed.keyVariable(for: "apiKey", host: "newsapi.org") == "NEWSAPI_APIKEY")
        #expect(Feed.keyVariable(for: "api-key", host: "api.nytimes.com") == "NYTIMES_API_KEY")
        #expect(Feed.keyVariable(for: "appid", host: "127.0.0.1") == "APPID")
        #expect(Feed.keyVariable(for: "key", host: "localhost") == "KEY")
        #expect(Feed.keyVariable(for: "2fa", host: nil) == "KEY_2FA")
    }
}
