import CCurl

/// The libcurl that was loaded: its version, and what follows from it.
struct CurlVersion: Sendable, Equatable, CustomStringConvertible {
    /// 0xXXYYZZ, as `curl_version_info` gives it (7.88.1 is 0x075801).
    var number: UInt32

    /// The loaded library's (after `rc_load`).
    static var loaded: CurlVersion { CurlVersion(number: rc_version_number()) }

    /// "7.88.1".
    var description: String { "\(number >> 16).\((number >> 8) & 0xFF).\(number & 0xFF)" }

    /// How a transfer is kept to http and https: by name from 7.85.0 (`CURLOPT_PROTOCOLS_STR`); before
    /// that, where the name option does not exist and would be refused, by the bitmask it replaced
    /// (`CURLOPT_PROTOCOLS`).
    var protocolLimit: ProtocolLimit {
        number >= UInt32(RC_LIBCURL_PROTOCOLS_STR) ? .names("http,https") : .bitmask(RC_CURLPROTO_HTTP | RC_CURLPROTO_HTTPS)
    }

    enum ProtocolLimit: Equatable {
        /// `CURLOPT_PROTOCOLS_STR` with this list.
        case names(String)
        /// `CURLOPT_PROTOCOLS` with these `CURLPROTO_*` bits.
        case bitmask(Int)
    }
}

/// Sets options on one easy handle (or, with `setMulti`, a multi handle), each from ccurl.h's table and
/// each result checked: an option libcurl refuses is an error that names it (and, when this libcurl is
/// older, the version that added it), never a setting silently left out.
struct CurlOptions {
    let easy: UnsafeMutableRawPointer
    let version: CurlVersion

    func set(_ option: rc_long_option, _ value: Int) throws(RiffleError) {
        try check(rc_easy_setopt_long(easy, option, value), Int32(bitPattern: option.rawValue), value: value)
    }

    /// A C string option; libcurl copies the text.
    func set(_ option: rc_pointer_option, _ text: String) throws(RiffleError) {
        try check(text.withCString { rc_easy_setopt_pointer(easy, option, $0) }, Int32(bitPattern: option.rawValue))
    }

    func set(_ option: rc_pointer_option, pointer: UnsafeRawPointer?) throws(RiffleError) {
        try check(rc_easy_setopt_pointer(easy, option, pointer), Int32(bitPattern: option.rawValue))
    }

    func set(_ option: rc_offset_option, _ value: Int64) throws(RiffleError) {
        try check(rc_easy_setopt_offset(easy, option, value), Int32(bitPattern: option.rawValue), value: Int(value))
    }

    func set(_ option: rc_function_option, _ callback: rc_data_callback) throws(RiffleError) {
        try check(rc_easy_setopt_data_callback(easy, option, callback), Int32(bitPattern: option.rawValue))
    }

    func set(_ option: rc_function_option, _ callback: rc_progress_callback) throws(RiffleError) {
        try check(rc_easy_setopt_progress_callback(easy, option, callback), Int32(bitPattern: option.rawValue))
    }

    /// Keeps the transfer to http and https, as this libcurl allows.
    func limitProtocols() throws(RiffleError) {
        switch version.protocolLimit {
        case .names(let names): try set(RC_CURLOPT_PROTOCOLS_STR, names)
        case .bitmask(let bits): try set(RC_CURLOPT_PROTOCOLS, bits)
        }
    }

    /// Sets a multi handle's option, checked as the easy ones are.
    static func setMulti(_ multi: UnsafeMutableRawPointer, _ option: rc_multi_option, _ value: Int,
                         version: CurlVersion) throws(RiffleError) {
        let code = rc_multi_setopt_long(multi, option, value)
        guard code != 0 else { return }
        var since: UnsafePointer<CChar>?
        let name = rc_multi_option_name(Int32(bitPattern: option.rawValue), &since).map { String(cString: $0) }
        throw refused(name: name, number: Int32(bitPattern: option.rawValue), value: value, since: since.map { String(cString: $0) },
                      version: version, reason: rc_multi_strerror(code).map { String(cString: $0) } ?? "CURLMcode \(code)")
    }

    private func check(_ code: Int32, _ option: Int32, value: Int? = nil) throws(RiffleError) {
        guard code != 0 else { return }
        var since: UnsafePointer<CChar>?
        let name = rc_option_name(option, &since).map { String(cString: $0) }
        throw Self.refused(name: name, number: option, value: value, since: since.map { String(cString: $0) },
                           version: version, reason: rc_easy_strerror(code).map { String(cString: $0) } ?? "CURLcode \(code)")
    }

    /// One line: "libcurl 7.84.0 refused CURLOPT_PROTOCOLS_STR (added in 7.85.0): An unknown option was
    /// passed in to libcurl". Values are shown for numbers only (a text option may hold a URL or a token).
    static func refused(name: String?, number: Int32, value: Int?, since: String?, version: CurlVersion,
                        reason: String) -> RiffleError {
        var text = "libcurl \(version) refused " + (name ?? "option \(number) (not in CCurl's table)")
        if let value { text += " = \(value)" }
        if let since, let added = Self.number(since), added > version.number { text += " (added in \(since))" }
        return .transport(text + ": " + reason)
    }

    /// "7.85.0" as 0x075500.
    static func number(_ version: String) -> UInt32? {
        let parts = version.split(separator: ".").compactMap { UInt32($0) }
        guard !parts.isEmpty, parts.count == version.split(separator: ".").count else { return nil }
        let padded = parts + [0, 0]
        return padded[0] << 16 | padded[1] << 8 | padded[2]
    }
}
