import CNcursesw
import CTerminal
import Foundation
import RiffleTUI

/// The ncurses implementation of `TerminalBackend`.
///
/// Every ncurses call happens on the thread that created the screen. Frames are diffed against the
/// previous one so a refresh sends only the cells that changed. The terminal is restored by
/// `close()`, on SIGINT/SIGTERM/SIGHUP (through the run loop), and on a crash (through the C guard).
public final class NcursesScreen: TerminalBackend {
    private var previous: Buffer?
    private var palette: Palette
    private var closed = false
    public private(set) var size: Size

    /// Starts curses on the process's terminal.
    /// - Parameter colors: false for `NO_COLOR` or the mono theme: attributes only.
    public init(theme: Theme = .plain, colors: Bool = true) {
        Self.prepareLocale()
        riffle_terminal_guard_install()
        _ = initscr()
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        set_escdelay(25)
        _ = curs_set(0)
        let useColors = colors && has_colors()
        if useColors {
            start_color()
            use_default_colors()
        }
        palette = Palette(theme: theme, colors: useColors)
        mousemask(cn_all_mouse_events(), nil)
        mouseinterval(0)
        riffle_quit_signals_install()
        size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
    }

    deinit { close() }

    /// Puts the terminal back as it was. Safe to call more than once.
    public func close() {
        guard !closed else { return }
        closed = true
        mousemask(0, nil)
        _ = curs_set(1)
        endwin()
    }

    /// The signal (SIGINT, SIGTERM, SIGHUP) received since the last call, or nil.
    public func takeQuitSignal() -> Int32? {
        let sig = riffle_quit_signal_take()
        return sig == 0 ? nil : sig
    }

    public func draw(_ buffer: Buffer) {
        if buffer.size != size || previous?.size != buffer.size {
            previous = nil
            erase()
        }
        let width = buffer.size.width
        var scalars: [wchar_t] = []
        // After an erase the screen is already blank: a full frame (the first one) skips its blank
        // cells when blank means the terminal's own default look.
        let (plainAttrs, plainPair) = palette.attributes(for: .normal)
        let skipBlanks = previous == nil && plainAttrs == cn_a_normal() && plainPair == 0
        for y in 0..<buffer.size.height {
            for x in 0..<width {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                if skipBlanks, cell == .blank { continue }
                if let previous, previous[x, y] == cell,
                   x + 1 >= width || previous[x + 1, y] == buffer[x + 1, y] { continue }
                scalars.removeAll(keepingCapacity: true)
                Self.appendDrawable(cell.symbol, to: &scalars)
                if scalars.isEmpty { scalars.append(32) }
                scalars.append(0)
                let (attrs, pair) = palette.attributes(for: cell.style)
                _ = cn_put_cell(Int32(y), Int32(x), scalars, attrs, pair)
            }
        }
        previous = buffer
        _ = refresh()
    }

    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        timeout(Int32(timeoutMilliseconds))
        var ch: wint_t = 0
        let kind = get_wch(&ch)
        if kind == ERR { return nil }
        if kind == KEY_CODE_YES { return functionKey(Int32(bitPattern: ch)) }
        return KeyDecoder.key(forCodePoint: ch).map(TerminalEvent.key)
    }

    private func functionKey(_ code: Int32) -> TerminalEvent? {
        switch code {
        case KEY_RESIZE:
            size = Size(width: Int(cn_cols()), height: Int(cn_lines()))
            previous = nil
            return .resize(size)
        case KEY_MOUSE:
            var event = MEVENT()
            guard getmouse(&event) == OK else { return nil }
            if event.bstate & cn_button4_pressed() != 0 { return .mouseWheel(up: true) }
            if event.bstate & cn_button5_pressed() != 0 { return .mouseWheel(up: false) }
            if event.bstate & cn_button1_clicked() != 0 { return .mouseClick(x: Int(event.x), y: Int(event.y)) }
            return nil
        default:
            return KeyDecoder.key(forKeyCode: code).map(TerminalEvent.key)
        }
    }

    /// A cell holds one base character and only non-spacing marks after it (what `setcchar` accepts).
    /// Emoji ZWJ sequences and other multi-character clusters are drawn as their first character,
    /// which is what the buffer measured, so the columns after them never shift.
    static func appendDrawable(_ symbol: String, to scalars: inout [wchar_t]) {
        for (index, scalar) in symbol.unicodeScalars.enumerated() {
            if index > 0 {
                if scalar.value == 0x200D { break }  // zero-width joiner: the rest is another glyph
                let isMark = scalar.properties.generalCategory == .nonspacingMark
                    || scalar.properties.generalCategory == .enclosingMark
                    || scalar.properties.generalCategory == .spacingMark
                    || (0xFE00...0xFE0F).contains(scalar.value)
                if !isMark { break }
            }
            scalars.append(wchar_t(bitPattern: scalar.value))
        }
    }

    /// wcwidth and the screen need a UTF-8 locale; fall back to C.UTF-8 when the environment has none.
    private static func prepareLocale() {
        _ = setlocale(LC_ALL, "")
        let ctype = String(cString: setlocale(LC_CTYPE, nil)).uppercased()
        if !ctype.contains("UTF-8") && !ctype.contains("UTF8") { _ = setlocale(LC_CTYPE, "C.UTF-8") }
        TextWidth.prepare()
    }
}
