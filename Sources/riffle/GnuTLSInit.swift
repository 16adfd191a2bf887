#if canImport(Glibc)
import Glibc
#endif

/// GnuTLS waits to be asked before it sets itself up in riffle's process (`GNUTLS_NO_IMPLICIT_INIT`).
///
/// Debian's libcurl.so.4 speaks TLS with OpenSSL, but two of the libraries it loads, librtmp and
/// libldap, bring GnuTLS, which sets itself up the moment it is loaded (its ciphers, the system's
/// priority file, p11-kit): about 0.8 MB resident in every riffle that makes a request, for a library
/// riffle never reaches (libcurl takes only http and https, with OpenSSL). With the variable set,
/// GnuTLS waits for `gnutls_global_init`, which librtmp, libldap and a libcurl built on GnuTLS call
/// before they use it. The variable is set at the start of `main`, before any thread runs, unless the
/// user set it; the programs riffle starts (a browser) get the environment as the user left it.
enum GnuTLSImplicitInit {
    /// The variable GnuTLS reads as it is loaded; `1` skips its set-up.
    static let variable = "GNUTLS_NO_IMPLICIT_INIT"

    /// Sets the variable unless the user did (only the first read does): true when riffle set it.
    static let skipped: Bool = {
        guard getenv(variable) == nil else { return false }
        return setenv(variable, "1", 0) == 0
    }()

    /// `environment` as the user left it: without the variable when riffle set it.
    static func asTheUserLeftIt(_ environment: [String: String]) -> [String: String] {
        guard skipped else { return environment }
        var environment = environment
        environment.removeValue(forKey: variable)
        return environment
    }
}
