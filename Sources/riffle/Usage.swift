enum Usage {
    static let version = "0.1.0"

    static let text = """
    riffle \(version): browse paged JSON feeds in the terminal.

    Usage:
      riffle                      browse the built-in demo feed (offline, on 127.0.0.1)
      riffle FEED                 browse a feed: a URL containing {page}, a preset (hn, lobsters,
                                  github:OWNER/REPO, reddit:NAME, ...) or a name from feeds.json
      riffle feeds                list the presets and the feeds file's feeds
      riffle dump FEED            print items for scripts (jsonl, json or tsv)
      riffle cache path|info|clear [FEED]
                                  where the cache is, what it holds, empty it

    Options:
      --cache-dir DIR     where pages are kept (default $XDG_CACHE_HOME/riffle, else ~/.cache/riffle)
      --max-age SECONDS   dump: fetch again any stored page older than this
      --first-page N      the server's number for the first page (default 1)
      --theme NAME        dark, light or mono (NO_COLOR also turns colours off)
      --demo-fail N       make the demo feed answer page N with HTTP 500
      -h, --help          show this help
      --version           show the version

    Dump options:
      --pages A-B         pages to print (default 1)
      --format FORMAT     jsonl (default, one item per line), json or tsv
      --fields a,b,...    fields for tsv, and to trim jsonl (e.g. title,url)
      --refresh           bypass the cache; --offline: the cache only
      --concurrency N     pages fetched at once (default 4; output stays in page order)
      --timings           one JSON line per page on stderr, then a summary

    Keys: j/k or arrows move, n/p next/previous page, Enter details, / filter, o open,
    r reload (bypass the cache), R reload all, ? every key, q quit.
    Exit status: 0 done, 1 some pages failed, 2 bad command line.
    """
}
