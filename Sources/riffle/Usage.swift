enum Usage {
    static let version = "0.1.0"

    static let text = """
    riffle \(version): browse paged JSON feeds in the terminal.

    Usage:
      riffle                      config.json's feed, else the feed list when feeds.json has feeds,
                                  else the built-in demo feed (offline, on 127.0.0.1)
      riffle FEED                 browse a feed: a URL ({page} where the page number goes; without
                                  it, the pages its answers link to), a preset (hn, lobsters,
                                  github:OWNER/REPO, reddit:NAME, ...), a name from feeds.json,
                                  or demo (the built-in demo feed, to every command)
      riffle feeds                list the presets and the feeds file's feeds
      riffle feeds --refresh      page 1 of each feed you read revalidated: what is new in each
                                  (--json: as a JSON array)
      riffle add NAME FEED        add a feed to feeds.json in one line ("NAME": "FEED"): FEED is a
                                  preset, preset:ARGUMENT or a URL
      riffle dump FEED            print items for scripts (jsonl, json or tsv)
      riffle inspect FEED         how page 1 is read: where the items are, which field gives the
                                  title, link, author, time... and why, the paging, a feeds.json entry
      riffle search WORDS         items listed before, in every feed, offline (jsonl, json or tsv)
      riffle cache path           print where the cache is
      riffle cache info [FEED...] what the cache holds, per feed (FEED: as above, or an id it prints)
      riffle cache clear [FEED...]
                                  remove those feeds' pages, or everything (asks first)
      riffle help                 show this help (also -h, --help)

    Options for every command:
      --cache-dir DIR     where pages are kept (default $XDG_CACHE_HOME/riffle, else ~/.cache/riffle)
      --max-age SECONDS   fetch again any stored page older than this (it is still shown, marked
                          stale, when the network or the server fails)
      --version           show the version

    Browsing:
      --first-page N      the server's number for the first page (default 1)
      --theme NAME        dark, light or mono (NO_COLOR also turns colours off)
      --demo-fail N       make the demo feed answer page N with HTTP 500
      --watch INTERVAL    revalidate page 1 every INTERVAL (90, 30s, 5m, 1h; 10 s to a day)

    riffle dump:
      --pages A-B         pages to print (default 1); A- runs to the feed's end, as does --all.
                          Every range stops where the feed ends
      --first-page N      as for browsing
      --format FORMAT     jsonl (default, one item per line), json or tsv
      --fields a,b,...    fields for tsv (default: all seven below), and to trim jsonl: title, link,
                          author, time, score, id, comments are what the browser shows; any other
                          name is a dotted path into the item as sent (user.login, .title)
      --refresh           bypass the cache; --offline: the cache only
      --concurrency N     pages fetched at once, 1 to 64 (default 4; output stays in page order)
      --hide              leave out the items the feed's rules hide (feeds.json's "hide"), as
                          the browser does; without it every item is printed
      --timings           standard error becomes JSON lines: one per page (failures with an
                          "error" field), then a summary

    riffle inspect:
      --first-page N      as for browsing
      --refresh, --offline
                          as for dump

    riffle search:
      --feed NAME         only that feed's items (its name or title)
      --format, --fields  as for dump (fields: feed, title, url, author, id, time, seen, text)
      --limit N           at most N items (default 100)
      --sort ORDER        newest first (default) or relevance: the best match first
      --hide              leave out what the rules of each item's feed hide, as for dump

    riffle cache:
      --json              info as one JSON object (path, bytes, pages, and per feed id, url,
                          pages, bytes)
      --yes               clear everything without asking (needed when not on a terminal)

    Files: $XDG_CONFIG_HOME/riffle/feeds.json (feeds, rules that hide items), config.json beside
    it (default feed, theme, browser, watch interval, keys).
    Environment: BROWSER (how `o` opens links: a :-separated list of commands, %s for the URL),
    RIFFLE_PRESETS (a presets file instead of the built-in one), NO_COLOR, XDG_CACHE_HOME,
    XDG_CONFIG_HOME.

    Keys: j/k or arrows move, n/p next/previous page, Enter details, / filter, o open,
    c comments, y copy the link, m seen, u next unseen, f save, S search, F feeds (R there
    refreshes them, e renames, d removes), w watch, e pick the fields (saved in feeds.json),
    r reload (bypass the cache), R reload all, ? every key, q quit.
    Exit status: 0 done, 1 some pages failed, 2 bad command line.
    """
}
