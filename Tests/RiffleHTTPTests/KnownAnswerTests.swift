import Foundation
import RiffleJSON
import Testing
@testable import RiffleHTTP

/// Hand-written pieces checked against answers published by others, never against themselves.
@Suite("SHA-256, ISO 8601 and HTTP dates against published known answers")
struct KnownAnswerTests {
    /// FIPS 180-2 appendix B and the NIST CSRC examples (SHA256.pdf), plus the empty message.
    @Test(arguments: [
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
    ])
    func sha256MatchesFIPS180(message: String, digest: String) {
        #expect(SHA256.hex(message) == digest)
    }

    @Test func sha256OfOneMillionAs() {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Lengths around the 56- and 64-byte padding boundaries, against Foundation-free reference values
    /// (`printf '%*s' N | tr ' ' a | sha256sum`).
    @Test(arguments: [
        (55, "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (56, "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (64, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func sha256AroundThePaddingBoundaries(length: Int, digest: String) {
        #expect(SHA256.hex([UInt8](repeating: UInt8(ascii: "a"), count: length)) == digest)
    }

    /// Unix seconds worked out by hand from the calendar (and `date -u -d ... +%s`), not by the parser.
    @Test(arguments: [
        ("1970-01-01T00:00:00Z", 0.0),
        ("2000-02-29T12:00:00Z", 951_825_600.0),
        ("2024-05-01T00:00:00Z", 1_714_521_600.0),
        ("2024-05-01", 1_714_521_600.0),
        ("2024-05-01 12:30:00", 1_714_566_600.0),
        ("2024-11-29T09:14:31.5+01:00", 1_732_868_071.5),
        ("2024-11-29T09:14:31+0100", 1_732_868_071.0),
        ("2024-11-29T09:14:31-05", 1_732_889_671.0),
        ("1969-12-31T23:59:59Z", -1.0),
        ("2016-12-31T23:59:60Z", 1_483_228_800.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
    ])
    func iso8601KnownAnswers(text: String, seconds: Double) {
        #expect(Timestamp.iso8601(text)?.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test(arguments: [
        "2023-02-29", "2024-02-30", "2024-04-31", "2024-13-01", "2024-00-10", "2024-05-00",
        "2024-05-01T24:00:00Z", "2024-05-01T12:60:00Z", "2024-05-01T12:30:61Z", "2024-05-01T12:30:00+24:00",
        "2024-05-01T12:30:00+01:60", "2024-05-01T12:30:00Zjunk", "2024-05-01T12:30:00+01:00junk", "2024-5-1",
        "24-05-01", "2024/05/01", "2024-05-01T1230", "", "yesterday",
    ])
    func iso8601RejectsWhatIsNoDate(text: String) {
        #expect(Timestamp.iso8601(text) == nil, "\(text)")
    }

    /// RFC 9110 §5.6.7's own example and MDN's, then calendar edges; Unix seconds from
    /// `date -u -d '...' +%s`, not from the parser.
    @Test(arguments: [
        ("Sun, 06 Nov 1994 08:49:37 GMT", 784_111_777.0),
        ("Wed, 21 Oct 2015 07:28:00 GMT", 1_445_412_480.0),
        ("Thu, 01 Jan 1970 00:00:00 GMT", 0.0),
        ("Tue, 29 Feb 2000 23:59:59 GMT", 951_868_799.0),
        (" Fri, 31 Dec 9999 23:59:59 GMT ", 253_402_300_799.0),
    ])
    func httpDateKnownAnswers(text: String, seconds: Double) {
        #expect(HTTPDate.parse(text)?.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 31 Nov 1994 08:49:37 GMT", "Sun, 06 Nov 1994 24:00:00 GMT",
                      "Sun, 6 Nov 1994 08:49:37 GMT",
                      "Xyz, 06 Nov 1994 08:49:37 GMT", "Sun, 06 Now 1994 08:49:37 GMT", "Sun, 06 Nov 1994 08:49:37 GMTx"])
    func httpDateReadsOnlyTheFixedForm(text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }

    @Test(arguments: ["", "soon", "1994-11-06T08:49:37Z", "784111777"])
    func httpDateRejectsWhatIsNoDate(text: String) {
        #expect(HTTPDate.parse(text) == nil, "\(text)")
    }
}
