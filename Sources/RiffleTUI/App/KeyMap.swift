/// Which key runs which `Command`: the standard bindings, with the user's changes on top.
///
/// ```swift
/// var keys = KeyMap.standard
/// try keys.bind("x", to: "open-link")   // x opens links too
/// try keys.bind("o", to: "none")        // and o no longer does
/// keys.command(for: .character("x"))    // .openLink
/// ```
package struct KeyMap: Sendable, Equatable {
    /// Key → command.
    package private(set) var bindings: [Key: Command]

    /// The browser's own keys (README's key table).
    package static let standard = KeyMap(bindings: [
        .character("j"): .down, .down: .down, .character("k"): .up, .up: .up,
        .character("g"): .first, .home: .first, .character("G"): .last, .end: .last,
        .pageDown: .pageDown, .character(" "): .pageDown, .pageUp: .pageUp,
        .control("d"): .halfDown, .control("u"): .halfUp,
        .character("n"): .nextPage, .character("p"): .previousPage,
        .enter: .open, .character("]"): .nextThread, .character("["): .previousThread,
        .character("U"): .previousNew, .character("v"): .rawJSON, .character("o"): .openLink,
        .character("c"): .comments, .character("C"): .discussion,
        .character("y"): .yankLink, .character("Y"): .yankJSON,
        .character("m"): .toggleSeen, .character("M"): .markAllSeen,
        .character("u"): .nextUnseen, .character("f"): .save,
        .character("/"): .filter, .character("S"): .search, .character("s"): .sort, .character("H"): .showHidden, .character("x"): .hideLike,
        .character("r"): .reload, .character("R"): .reloadAll, .character("w"): .watch, .character("e"): .edit, .character("d"): .remove,
        .character("F"): .feeds, .character("L"): .log, .character("?"): .help,
        .escape: .back, .character("q"): .quit,
    ])

    package init(bindings: [Key: Command]) { self.bindings = bindings }

    /// The command `key` runs, if any.
    package func command(for key: Key) -> Command? { bindings[key] }

    /// The keys bound to `command`, in the order the help shows them (letters, then the rest).
    package func keys(for command: Command) -> [Key] {
        bindings.filter { $0.value == command }.map(\.key).sorted { Self.order($0) < Self.order($1) }
    }

    /// Binds the key called `keyName` to the command called `commandName` ("none" unbinds it).
    /// - Throws: `KeyMap.Problem` naming what is not a key or not a command.
    package mutating func bind(_ keyName: String, to commandName: String) throws(Problem) {
        guard let key = Self.key(named: keyName) else { throw .unknownKey(keyName) }
        if commandName == "none" {
            bindings[key] = nil
            return
        }
        guard let command = Command(rawValue: commandName) else { throw .unknownCommand(commandName) }
        bindings[key] = command
    }

    /// What is wrong with a binding; each reads as one line.
    package enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        case unknownKey(String)
        case unknownCommand(String)

        package var description: String {
            switch self {
            case .unknownKey(let name):
                "'\(name)' is not a key (a character, ctrl-X, enter, esc, space, tab, backspace, delete, up, down, left, right, home, end, pgup, pgdn, f1-f12)"
            case .unknownCommand(let name):
                "'\(name)' is not a command (one of \(Command.allCases.map(\.rawValue).joined(separator: ", ")), or none)"
            }
        }
    }

    /// The key a name in `config.json` stands for: one character (`x`, `X`, `?`), `ctrl-x`, or a
    /// named key (`enter`, `esc`, `space`, `pgdn`, `f5`...).
    package static func key(named name: String) -> Key? {
        if name.count == 1, let character = name.first, character != " " { return .character(character) }
        let lower = name.lowercased()
        for prefix in ["ctrl-", "c-", "^"] where lower.hasPrefix(prefix) {
            let rest = lower.dropFirst(prefix.count)
            guard rest.count == 1, let letter = rest.first, ("a"..."z").contains(letter) else { return nil }
            return .control(letter)
        }
        if lower.hasPrefix("f"), let n = Int(lower.dropFirst()), (1...12).contains(n) { return .function(n) }
        return namedKeys[lower]
    }

    private static let namedKeys: [String: Key] = [
        "enter": .enter, "return": .enter, "esc": .escape, "escape": .escape, "space": .character(" "), "tab": .tab,
        "backspace": .backspace, "delete": .delete, "del": .delete, "up": .up, "down": .down, "left": .left, "right": .right,
        "home": .home, "end": .end, "pgup": .pageUp, "pageup": .pageUp, "pgdn": .pageDown, "pagedown": .pageDown,
    ]

    /// How the help shows a key: `j`, `^d`, `↑`, `PgDn`, `Enter`.
    package static func label(_ key: Key) -> String {
        switch key {
        case .character(" "): "Space"
        case .character(let c): String(c)
        case .control(let c): "^\(c)"
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .home: "Home"
        case .end: "End"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .enter: "Enter"
        case .escape: "Esc"
        case .backspace: "Bksp"
        case .tab: "Tab"
        case .delete: "Del"
        case .function(let n): "F\(n)"
        }
    }

    /// Letters first (lower before upper), then other characters, control keys, and named keys.
    private static func order(_ key: Key) -> (Int, String) {
        switch key {
        case .character(" "): (3, " ")
        case .character(let c) where c.isLetter: (0, c.isUppercase ? "1" + String(c) : "0" + String(c))
        case .character(let c): (1, String(c))
        case .control(let c): (2, String(c))
        default: (3, label(key))
        }
    }
}
