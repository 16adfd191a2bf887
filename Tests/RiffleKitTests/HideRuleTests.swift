import Foundation
import Testing
@testable import RiffleKit

@Suite("Rules that hide items: how they read and what they hide")
struct HideRuleTests {
    func item(_ title: String, author: String? = nil, url: String? = nil, fields: JSONValue = [:]) -> Item {
        var item = Item(id: nil, title: title, details: [], url: url, createdAt: nil, fields: fields)
        item.author = author
        return item
    }

    func hides(_ rule: String, _ item: Item) throws -> Bool { try HideRule(rule).matches(item) }

    func problem(_ rule: String) -> String? {
        do { _ = try HideRule(rule); return nil } catch { return error.description }
    }

    // MARK: Words of the title

    @Test func wordsMatchWholeWordsIgnoringCase() throws {
        #expect(try hides("crypto", item("Crypto winter is here")))
        #expect(try hides("crypto", item("Is CRYPTO dead?")))
        #expect(try hides("crypto", item("The end of crypto.")))
        #expect(try hides("CRYPTO", item("a crypto-bro's lament")))
        // Part of a longer word is no match, at either end.
        #expect(try !hides("crypto", item("Cryptography for engineers")))
        #expect(try !hides("crypto", item("Anticrypto")))
        #expect(try !hides("rust", item("In trust we trust")))
        #expect(try !hides("hn", item("show_hn launched")))
    }

    @Test func aPhraseMatchesItsWordsInOrder() throws {
        #expect(try hides("Show HN", item("Show HN: a terminal reader")))
        #expect(try !hides("Show HN", item("HN show and tell")))
        #expect(try !hides("Show HN", item("Showcase HN")))
        // A later occurrence counts when the first is inside a word.
        #expect(try hides("go", item("Gophers who go fast")))
    }

    @Test func cjkAndEmojiTitles() throws {
        // Scripts without spaces match wherever the rule's characters stand.
        #expect(try hides("比特币", item("比特币价格暴涨")))
        #expect(try hides("ビットコイン", item("今日のビットコイン相場")))
        #expect(try !hides("比特币", item("以太坊价格")))
        // A Latin word beside CJK text still ends there.
        #expect(try hides("rust", item("Rust入门")))
        // Korean puts spaces between words: whole words only.
        #expect(try hides("비트코인", item("오늘의 비트코인 가격")))
        #expect(try !hides("비트", item("오늘의 비트코인 가격")))
        // An emoji is no letter: it matches beside anything.
        #expect(try hides("🚀", item("Launch🚀day")))
        #expect(try hides("🇺🇦", item("News 🇺🇦 today")))
        #expect(try !hides("🇺🇦", item("News 🇪🇺 today")))
        // Accented letters are letters: "cafe" is not "café".
        #expect(try hides("café", item("Le Café du coin")))
        #expect(try !hides("cafe", item("Le café du coin")))
    }

    @Test func titleSpellsOutTheWordsForm() throws {
        #expect(try hides("title:til:", item("TIL: swift macros")))
        #expect(try hides("Ask HN: who", item("Ask HN: Who is hiring?")))
    }

    // MARK: Author, site, field

    @Test func authorIsTheWholeNameIgnoringCase() throws {
        #expect(try hides("author:Spammer", item("x", author: "spammer")))
        #expect(try !hides("author:spam", item("x", author: "spammer")))
        #expect(try !hides("author:spammer", item("x")))
    }

    @Test func siteIsTheDomainAndItsSubdomains() throws {
        #expect(try hides("site:example.com", item("x", url: "https://example.com/a")))
        #expect(try hides("site:example.com", item("x", url: "https://blog.Example.COM/a?b=1")))
        #expect(try hides("site:example.com", item("x", url: "http://example.com.:8080/")))
        #expect(try hides("site:www.medium.com", item("x", url: "https://medium.com/p")))
        #expect(try !hides("site:example.com", item("x", url: "https://notexample.com/a")))
        #expect(try !hides("site:example.com", item("x", url: "https://example.com.evil.org/a")))
        #expect(try !hides("site:example.com", item("x", url: "https://other.org/example.com")))
        #expect(try !hides("site:example.com", item("x")))
    }

    @Test func aFieldRuleReadsTheItemsJSON() throws {
        let fields: JSONValue = ["type": "job", "data": ["over_18": true, "flair": "Meta discussion"], "_tags": ["story", "ask_hn"],
                                 "labels": [["name": "wontfix"], ["name": "bug"]], "points": 0]
        #expect(try hides(".type:job", item("x", fields: fields)))
        #expect(try hides(".TYPE:job", item("x", fields: ["TYPE": "Job"])))
        #expect(try !hides(".type:story", item("x", fields: fields)))
        #expect(try hides(".data.over_18:true", item("x", fields: fields)))
        #expect(try hides(".data.flair:meta", item("x", fields: fields)))
        #expect(try hides("._tags:ask_hn", item("x", fields: fields)))
        #expect(try !hides("._tags:ask", item("x", fields: fields)))
        #expect(try hides(".labels.*.name:wontfix", item("x", fields: fields)))
        #expect(try hides(".points:0", item("x", fields: fields)))
        #expect(try !hides(".missing:x", item("x", fields: fields)))
    }

    @Test func aFieldRuleReadsAnItemLeftInItsPage() throws {
        let page = Data(#"[{"title": "a", "type": "job", "tags": ["x", "ask_hn"]}, {"title": "b", "type": "story"}]"#.utf8)
        let items = try ItemExtractor.items(inStoredPage: page, itemPath: nil, fields: FieldMapping(), baseURL: nil)
        #expect(items.count == 2)
        #expect(items[0].fieldsNode != nil)
        let job = try HideRule(".type:job"), tag = try HideRule(".tags:ask_hn")
        #expect(items.map(job.matches) == [true, false])
        #expect(items.map(tag.matches) == [true, false])
    }

    // MARK: Bad rules

    @Test func badRulesSayWhatIsWrongQuotingTheRule() {
        #expect(problem("") == "'': an empty rule would hide nothing (write words, author:NAME, site:DOMAIN or .PATH:TEXT)")
        #expect(problem("   ")?.hasPrefix("'   ': an empty rule") == true)
        #expect(problem("autor:bob") == "'autor:bob': unknown kind 'autor:' (expected author:NAME, site:DOMAIN, title:WORDS or .PATH:TEXT)")
        #expect(problem("https://example.com")?.contains("unknown kind 'https:'") == true)
        #expect(problem("author:") == "'author:': author: needs a name (author:pg)")
        #expect(problem("site:") != nil)
        #expect(problem("site:https://example.com/") != nil)
        #expect(problem("site:example.com/path") != nil)
        #expect(problem("site:example.com:8080") != nil)
        #expect(problem("site:exa mple.com") != nil)
        #expect(problem("site:.com") != nil)
        #expect(problem("site:bücher.de") != nil)
        #expect(problem(".type") == "'.type': a field rule is .PATH:TEXT (.type:job)")
        #expect(problem(".:job") == "'.:job': a field rule needs a path before the colon (.type:job)")
        #expect(problem(".type:") == "'.type:': nothing to look for after the colon")
        #expect(problem("title:") != nil)
        #expect(problem("!!!") == "'!!!': punctuation alone would hide too much")
        #expect(problem("two\nlines") != nil)
        // Good ones, for contrast: words with a colon and a space are words.
        #expect(problem("Show HN: x") == nil)
        #expect(problem("site:xn--bcher-kva.de") == nil)
        #expect(problem("site:localhost") == nil)
        #expect(problem("C++") == nil)
    }

    @Test func theRuleReadsAsWritten() throws {
        #expect(try HideRule("Site:Example.com").description == "Site:Example.com")
        #expect(try HideRule("Site:Example.com") == HideRule("site:example.com"))
    }

    // MARK: In a feeds file

    func parse(_ text: String) throws(FeedCatalog.Error) -> FeedCatalog {
        try FeedCatalog.parse(Data(text.utf8), file: "feeds.json", presets: FeedCatalog(definitions: [
            FeedDefinition(name: "hn", description: "", template: "https://hn.example/{page}", pagination: Pagination(.pageNumber(firstPage: 0)),
                           fields: FieldMapping(), headers: [:], query: [:]),
        ]))
    }

    func message(_ text: String) -> String? {
        do { _ = try parse(text); return nil } catch { return error.description }
    }

    @Test func aFeedsFileHasRulesPerFeedAndForEveryFeed() throws {
        let catalog = try parse(#"{"hide": ["crypto"], "feeds": {"#
            + #""mine": {"url": "https://x.org/{page}", "hide": ["site:example.com", "author:bob"]}, "#
            + #""news": {"preset": "hn", "hide": [".type:job"]}, "plain": "hn"}}"#)
        #expect(catalog.hide == [try HideRule("crypto")])
        #expect(catalog["mine"]?.hide == [try HideRule("site:example.com"), try HideRule("author:bob")])
        #expect(try catalog["mine"]?.feed(argument: nil).hide == [try HideRule("site:example.com"), try HideRule("author:bob")])
        #expect(catalog["news"]?.hide == [try HideRule(".type:job")])
        #expect(catalog["plain"]?.hide == [])
        #expect(try parse(#"{"hide": ["x"]}"#).hide.count == 1)
    }

    @Test func aBadRuleInAFeedsFileNamesTheFeedAndTheRule() {
        #expect(message(#"{"feeds": {"mine": {"url": "https://x.org/{page}", "hide": ["ok", "autor:bob"]}}}"#)
            == "feeds.json: feed 'mine': field 'hide': 'autor:bob': unknown kind 'autor:' (expected author:NAME, site:DOMAIN, title:WORDS or .PATH:TEXT)")
        #expect(message(#"{"feeds": {"news": {"preset": "hn", "hide": ["site:"]}}}"#)?.hasPrefix("feeds.json: feed 'news': field 'hide': 'site:': ") == true)
        #expect(message(#"{"feeds": {"mine": {"url": "https://x.org/{page}", "hide": "crypto"}}}"#)
            == "feeds.json: feed 'mine': field 'hide': expected an array of rules, got a string")
        #expect(message(#"{"feeds": {"mine": {"url": "https://x.org/{page}", "hide": [3]}}}"#)
            == "feeds.json: feed 'mine': field 'hide': expected each rule as a string, got a number")
        #expect(message(#"{"hide": [""], "feeds": {}}"#)?.hasPrefix("feeds.json: field 'hide': '': an empty rule") == true)
        #expect(message(#"{"hides": []}"#) == "feeds.json: field 'hides': unknown field (expected \"feeds\" or \"hide\")")
    }
}
