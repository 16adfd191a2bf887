enum Usage {
    static let version = "0.1.0"

    static let text = """
    riffle \(version): browse paged JSON feeds in the terminal.

    Usage:
      riffle                      browse the built-in demo feed (offline, on 127.0.0.1)
      riffle URL                  browse a feed whose URL contains {page}
                                  e.g. riffle 'https://lobste.rs/page/{page}.json'

    Options:
      --first-page N      the server's number for the first page (default 1)
      --cache-dir DIR     where pages are kept (default $XDG_CACHE_HOME/riffle, else ~/.cache/riffle)
      --theme NAME        dark, light or mono (NO_COLOR also turns colours off)
      --demo-fail N       make the demo feed answer page N with HTTP 500
      -h, --help          show this help
      --version           show the version

    Keys: j/k or arrows move, n/p next/previous page, r reload (bypass the cache), q quit.
    """
}
