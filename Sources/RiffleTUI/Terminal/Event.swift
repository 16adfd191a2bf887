/// A key or mouse event from the terminal, independent of ncurses.
package enum Key: Sendable, Hashable {
    /// A printable character (including CJK typed through an input method).
    case character(Character)
    /// Control plus a letter, e.g. `.control("d")` for Ctrl-D.
    case control(Character)
    case up, down, left, right, home, end, pageUp, pageDown
    case enter, escape, backspace, tab, delete
    case function(Int)
}

/// What the run loop feeds to the app from the terminal.
package enum TerminalEvent: Sendable, Hashable {
    case key(Key)
    case resize(Size)
    case mouseWheel(up: Bool)
    case mouseClick(x: Int, y: Int)
}

/// Where frames go and events come from. The ncurses implementation lives in `NcursesTerminal`;
/// `InMemoryTerminal` is for tests.
package protocol TerminalBackend: AnyObject {
    /// The current size in cells.
    var size: Size { get }
    /// Draws `buffer`, changing only what differs from the previous frame.
    func draw(_ buffer: Buffer)
    /// The next event, waiting at most `timeoutMilliseconds`; nil when none arrived.
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent?
    /// The signal asking the program to end (SIGINT, SIGTERM, SIGHUP) received since the last call, or nil.
    func takeQuitSignal() -> Int32?
    /// Puts the terminal back as it was before the program started. Safe to call more than once.
    func restore()
}
