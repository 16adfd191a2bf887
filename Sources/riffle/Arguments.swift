/// What the user asked for on the command line: a command, its positional arguments and options.
///
/// Options that every command takes (`--cache-dir`, `--max-age`) may stand before or after the
/// command name; `--name=value` and `--name value` are both accepted.
struct Arguments: Equatable {
    enum Command: String, Equatable, CaseIterable {
        /// Browse a feed in the terminal (the default).
        case browse
        /// Print items for scripts.
        case dump
        /// Say how a feed's first page is read.
        case inspect
        /// Show or clear the cache.
        case cache
        /// List the presets and the feeds file's feeds.
        case feeds
        /// Add a feed of one line to the feeds file.
        case add
        /// Search everything the browser has listed.
        case search
        case help
        case version
    }

    var command: Command = .browse
    /// Positional arguments after the command name.
    var positionals: [String] = []
    /// Options given with a value, by name (`--pages` → "1-3").
    var values: [String: String] = [:]
    /// Options given without a value.
    var flags: Set<String> = []

    /// A command line that cannot be run; `description` is the one-line message.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Options that take a value, and the commands that accept each (nil: every command).
    static let valueOptions: [String: Set<Command>?] = [
        "--cache-dir": nil, "--max-age": nil,
        "--first-page": [.browse, .dump, .inspect], "--theme": [.browse], "--demo-fail": [.browse], "--watch": [.browse],
        "--pages": [.dump], "--format": [.dump, .search], "--fields": [.dump, .search], "--concurrency": [.dump],
        "--feed": [.search], "--limit": [.search], "--sort": [.search],
    ]
    /// Options that are flags, and the commands that accept each.
    static let flagOptions: [String: Set<Command>?] = [
        "--refresh": [.dump, .inspect, .feeds], "--offline": [.dump, .inspect], "--all": [.dump], "--timings": [.dump], "--json": [.cache, .feeds],
        "--hide": [.dump, .search],
        "--yes": [.cache],
    ]

    /// What `riffle help TOPIC` takes: the commands' names.
    static let helpTopics = Command.allCases.filter { ![.browse, .help, .version].contains($0) }.map(\.rawValue)

    /// Parses `argv` without the program name.
    static func parse(_ argv: [String]) throws(UsageError) -> Arguments {
        var arguments = Arguments()
        var positionals: [String] = []
        var seen: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < argv.count {
            var argument = argv[index]
            index += 1
            if onlyPositionals || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            switch argument {
            case "--": onlyPositionals = true; continue
            case "-h", "--help": arguments.command = .help; return arguments
            case "--version": arguments.command = .version; return arguments
            default: break
            }
            var inlineValue: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                inlineValue = String(argument[argument.index(after: equals)...])
                argument = String(argument[..<equals])
            }
            if valueOptions[argument] != nil {
                guard let value = inlineValue ?? (index < argv.count ? argv[index] : nil) else {
                    throw UsageError("option \(argument) needs a value")
                }
                if inlineValue == nil { index += 1 }
                arguments.values[argument] = value
            } else if flagOptions[argument] != nil {
                guard inlineValue == nil else { throw UsageError("option \(argument) takes no value") }
                arguments.flags.insert(argument)
            } else {
                throw UsageError("unknown option '\(argument)'")
            }
            seen.append(argument)
        }
        // `--cache-dir "$UNSET"` is a mistake, not the default cache (which `cache clear --yes` would empty).
        if arguments.values["--cache-dir"]?.isEmpty == true { throw UsageError("option --cache-dir needs a folder, got ''") }
        // `riffle help` (and `riffle help dump`) is `riffle --help`, as in git and most tools; a topic
        // that is no command is a mistake (a typo, a command riffle does not have), not the help.
        if positionals.first == Command.help.rawValue {
            let topics = positionals.dropFirst()
            if let topic = topics.first(where: { !helpTopics.contains($0) }) {
                throw UsageError("unknown help topic '\(topic)' (use " + helpTopics.dropLast().joined(separator: ", ") + " or \(helpTopics.last!))")
            }
            guard topics.count <= 1 else { throw UsageError("riffle help takes one topic, got \(topics.count): \(topics.joined(separator: " "))") }
            arguments.command = .help
            return arguments
        }
        if let first = positionals.first, let command = Command(rawValue: first), ![.browse, .help, .version].contains(command) {
            arguments.command = command
            positionals.removeFirst()
        }
        arguments.positionals = positionals
        for option in seen {
            let allowed = (valueOptions[option] ?? flagOptions[option]) ?? nil
            if let allowed, !allowed.contains(arguments.command) {
                throw UsageError("option \(option) does not apply to '\(arguments.command == .browse ? "riffle" : "riffle \(arguments.command.rawValue)")'")
            }
        }
        return arguments
    }

    /// The value of an integer option, checked against `range`; nil when absent. A number out of
    /// range (or too large for any integer) is a usage error naming the option, never a trap later.
    func integer(_ option: String, in range: ClosedRange<Int>) throws(UsageError) -> Int? {
        guard let text = values[option] else { return nil }
        guard let number = Int(text), range.contains(number) else {
            throw UsageError("option \(option) needs a whole number from \(range.lowerBound) to \(range.upperBound), got '\(text)'")
        }
        return number
    }

    /// The value of an option that must be one of `choices`; nil when absent.
    func choice(_ option: String, in choices: [String]) throws(UsageError) -> String? {
        guard let value = values[option] else { return nil }
        guard choices.contains(value) else {
            throw UsageError("option \(option) must be one of \(choices.joined(separator: ", ")), got '\(value)'")
        }
        return value
    }

    var cacheDirectory: String? { values["--cache-dir"] }
}
