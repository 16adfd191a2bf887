/// What the user asked for on the command line.
struct Arguments: Equatable {
    enum Command: Equatable {
        /// Browse a feed in the terminal; nil means the built-in demo.
        case browse(feed: String?)
        case help
        case version
    }

    var command: Command = .browse(feed: nil)
    var firstPage = 1
    var cacheDirectory: String?
    var demoFailPage: Int?
    var theme: String?

    /// A command line that cannot be run; `description` is the one-line message.
    struct UsageError: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// Parses `argv` without the program name.
    static func parse(_ argv: [String]) throws(UsageError) -> Arguments {
        var arguments = Arguments()
        var positional: [String] = []
        var index = 0
        func value(for option: String) throws(UsageError) -> String {
            index += 1
            guard index < argv.count else { throw UsageError("option \(option) needs a value") }
            return argv[index]
        }
        func integer(for option: String, minimum: Int) throws(UsageError) -> Int {
            let text = try value(for: option)
            guard let number = Int(text), number >= minimum else {
                throw UsageError("option \(option) needs a whole number ≥ \(minimum), got '\(text)'")
            }
            return number
        }
        while index < argv.count {
            let argument = argv[index]
            // --name=value is accepted as well as --name value.
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                let name = String(argument[..<equals])
                var expanded = argv
                expanded.replaceSubrange(index...index, with: [name, String(argument[argument.index(after: equals)...])])
                return try parse(expanded)
            }
            switch argument {
            case "-h", "--help": arguments.command = .help; return arguments
            case "--version": arguments.command = .version; return arguments
            case "--first-page": arguments.firstPage = try integer(for: argument, minimum: 0)
            case "--cache-dir": arguments.cacheDirectory = try value(for: argument)
            case "--demo-fail": arguments.demoFailPage = try integer(for: argument, minimum: 1)
            case "--theme":
                let theme = try value(for: argument)
                guard ["dark", "light", "mono"].contains(theme) else {
                    throw UsageError("unknown theme '\(theme)' (use dark, light or mono)")
                }
                arguments.theme = theme
            case "--":
                positional.append(contentsOf: argv[(index + 1)...])
                index = argv.count
                continue
            default:
                if argument.hasPrefix("-") && argument.count > 1 { throw UsageError("unknown option '\(argument)'") }
                positional.append(argument)
            }
            index += 1
        }
        guard positional.count <= 1 else { throw UsageError("expected one feed, got \(positional.count): \(positional.joined(separator: " "))") }
        arguments.command = .browse(feed: positional.first)
        return arguments
    }
}
