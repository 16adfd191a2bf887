import CCurl
import DemoServer
import Foundation
import RiffleTestSupport
import Testing
@testable import RiffleHTTP

/// libcurl's options come from CCurl's one table, and each is checked as it is set.
@Suite("libcurl options: every refusal is a one-line error naming the option; the version decides the protocol limit")
struct CurlOptionsTests {
    /// The loaded libcurl's version, as the errors spell it.
    static func loadedVersion() throws -> CurlVersion {
        var error = [CChar](repeating: 0, count: 256)
        let loaded = rc_load(&error, error.count)
        try #require(loaded == 0, "\(String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))")
        return .loaded
    }

    @Test func anOptionLibcurlRefusesFailsTheRequestAndNamesIt() async throws {
        let server = try HTTPServer { _ in .json("{}") }
        var configuration = CurlTransport.Configuration()
        configuration.maxBodySize = -1   // CURLOPT_MAXFILESIZE_LARGE takes no negative size
        let error = await riffleError { () async throws(RiffleError) in
            try await CurlTransport(configuration).send(HTTPRequest(url: server.url("/items")))
        }
        let version = try Self.loadedVersion()
        #expect(error == .transport("libcurl \(version) refused CURLOPT_MAXFILESIZE_LARGE = -1: A libcurl function was given a bad argument"))
        #expect(server.requestCount == 0)
    }

    @Test func anOptionOutsideTheTableGoesThroughTheSameCheck() throws {
        let version = try Self.loadedVersion()
        let easy = try #require(rc_easy_init())
        defer { rc_easy_cleanup(easy) }
        let options = CurlOptions(easy: easy, version: version)
        #expect(throws: RiffleError.transport("libcurl \(version) refused option 9999 (not in CCurl's table) = 1: An unknown option was passed in to libcurl")) {
            try options.set(rc_long_option(rawValue: 9_999), 1)
        }
        // A known one, for contrast, is taken.
        try options.set(RC_CURLOPT_NOSIGNAL, 1)

        let multi = try #require(rc_multi_init())
        defer { rc_multi_cleanup(multi) }
        #expect(throws: RiffleError.transport("libcurl \(version) refused option 999 (not in CCurl's table) = 1: Unknown option")) {
            try CurlOptions.setMulti(multi, rc_multi_option(rawValue: 999), 1, version: version)
        }
    }

    @Test func anOptionNewerThanTheLibraryNamesTheVersionThatAddedIt() {
        let error = CurlOptions.refused(name: "CURLOPT_PROTOCOLS_STR", number: 10_318, value: nil, since: "7.85.0",
                                        version: CurlVersion(number: 0x07_54_00), reason: "An unknown option was passed in to libcurl")
        #expect(error.description == "libcurl 7.84.0 refused CURLOPT_PROTOCOLS_STR (added in 7.85.0): An unknown option was passed in to libcurl")
        let old = CurlOptions.refused(name: "CURLOPT_URL", number: 10_002, value: nil, since: "7.1",
                                      version: CurlVersion(number: 0x07_58_01), reason: "Out of memory")
        #expect(old.description == "libcurl 7.88.1 refused CURLOPT_URL: Out of memory")
    }

    @Test(arguments: [
        (0x07_44_00, CurlVersion.ProtocolLimit.bitmask(3)),      // 7.68.0, the oldest loaded
        (0x07_54_00, .bitmask(3)),                                // 7.84.0: no CURLOPT_PROTOCOLS_STR yet
        (0x07_55_00, .names("http,https")),                       // 7.85.0
        (0x07_58_01, .names("http,https")),
        (0x08_0B_00, .names("http,https")),
    ] as [(UInt32, CurlVersion.ProtocolLimit)])
    func theProtocolLimitFollowsTheVersion(number: UInt32, expected: CurlVersion.ProtocolLimit) {
        #expect(CurlVersion(number: number).protocolLimit == expected)
    }

    @Test func thisLibcurlTakesEitherProtocolLimit() throws {
        let version = try Self.loadedVersion()
        let easy = try #require(rc_easy_init())
        defer { rc_easy_cleanup(easy) }
        // The names where it has them, and the bitmask an older one would get (deprecated, still taken).
        try CurlOptions(easy: easy, version: version).limitProtocols()
        try CurlOptions(easy: easy, version: CurlVersion(number: 0x07_54_00)).limitProtocols()
    }

    @Test func theTableNamesEachOptionWithTheVersionThatAddedIt() throws {
        var since: UnsafePointer<CChar>?
        #expect(rc_option_name(Int32(RC_CURLOPT_PROTOCOLS_STR.rawValue), &since).map { String(cString: $0) } == "CURLOPT_PROTOCOLS_STR")
        #expect(since.map { String(cString: $0) } == "7.85.0")
        #expect(rc_multi_option_name(Int32(RC_CURLMOPT_PIPELINING.rawValue), &since).map { String(cString: $0) } == "CURLMOPT_PIPELINING")
        #expect(rc_option_name(9_999, &since) == nil)
        // The version as libcurl's own text has it.
        let version = try Self.loadedVersion()
        #expect(String(cString: rc_version()).hasPrefix("libcurl/\(version) "))
    }
}
