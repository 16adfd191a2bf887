import CNcursesw
import CTerminal
import Foundation
import RiffleTUI

/// The ncurses implementation of `TerminalBackend`.
///
/// Every ncurses call happens on the thread that created the screen. Frames are diffed against the
/// previous one so a refresh sends only the cells that changed. The terminal is restored by
/// `restore()`, on SIGINT/SIGTERM/SIGHUP (through the run loop), and on a crash (through the C guard).
package final class NcursesScreen: TerminalBackend {
    private var previous: Buffer?
    private var palette: Palette
    private var closed = false
    /// Set once the terminal has hung up (its input reads as closed): the run loop then ends as on SIGHUP.
    private var hungUp = false
    /// Whether clusters ncurses cannot hold can be written directly (the terminal has `cup`).
    private let canAddressCursor: Bool
    package private(set) var size: Size

    /// Starts curses on the process's terminal.
    /// - Parameter colors: false for `NO_COLOR` or the mono theme: attributes only.
    package init(theme: Theme = .plain, colors: Bool = true) {
        TextWidth.prepare()
        riffle_terminal_guard_install()
        _ = initscr()
        cbreak()
        noecho()
        nonl()
        keypad(cn_stdscr(), true)
        set_escdelay(25)
        // No half-drawn frames: a frame ncurses left unfinished for pending keys would later cover
        // the clusters written directly over it.
        typeahead(-1)
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
        canAddressCursor = cn_can_address_cursor()
    }

    deinit { restore() }

    /// Puts the terminal back as it was. Safe to call more than once.
    package func restore() {
        guard !closed else { return }
        closed = true
        mousemask(0, nil)
        _ = curs_set(1)
        endwin()
    }

    package func takeQuitSignal() -> Int32? {
        let sig = riffle_quit_signal_take()
        if sig != 0 { return sig }
        return hungUp ? SIGHUP : nil
    }

    package func draw(_ buffer: Buffer) {
        if riffle_resumed_take() != 0 { takeBackAfterStop() }
        if buffer.size != size || previous?.size != buffer.size {
            previous = nil
            erase()
        }
        let width = buffer.size.width
        var scalars: [wchar_t] = []
        var touchedRows: [Int] = []
        // After an erase the screen is already blank: a full frame (the first one) skips its blank
        // cells when blank means the terminal's own default look.
        let (plainAttrs, plainPair) = palette.attributes(for: .normal)
        let skipBlanks = previous == nil && plainAttrs == cn_a_normal() && plainPair == 0
        for y in 0..<buffer.size.height {
            var touched = false
            for x in 0..<width {
                let cell = buffer[x, y]
                if cell.isContinuation { continue }
                if skipBlanks, cell == .blank { continue }
                if let previous, previous[x, y] == cell,
                   x + 1 >= width || previous[x + 1, y] == buffer[x + 1, y] { continue }
                touched = true
                let (attrs, pair) = palette.attributes(for: cell.style)
                switch glyph(buffer, x, y) {
                case .cell(let characters):
                    scalars.removeAll(keepingCapacity: true)
                    scalars += characters
                    scalars.append(0)
                    _ = cn_put_cell(Int32(y), Int32(x), scalars, attrs, pair)
                case .direct(_, let cellWidth, _):
                    // ncurses holds blanks in the cluster's columns; it is written after the refresh.
                    for column in x..<x + cellWidth { _ = cn_put_cell(Int32(y), Int32(column), [32, 0], attrs, pair) }
                }
            }
            if touched {
                touchedRows.append(y)
                // ncurses holds blanks where a cluster was written directly, so a blank drawn there now
                // is no change to it and never reaches the terminal: half a flag stayed beside the
                // border of a box drawn over it. Such a row is written whole.
                if let previous, !Glyph.directWrites(in: previous, rows: [y], canWriteDirectly: canAddressCursor).isEmpty {
                    _ = cn_redraw_row(Int32(y))
                }
            }
        }
        previous = buffer
        _ = refresh()
        writeClustersDirectly(buffer, rows: touchedRows)
    }

    /// After a stop and a continue (SIGCONT). After Ctrl-Z and fg, ncurses put its modes back and
    /// repainted from its copy, which has blanks where clusters were written directly. A stop it never
    /// saw (SIGSTOP: `kill -STOP`, a debugger, a job-control tool) left the terminal as the shell set it
    /// while riffle was stopped: line editing and echo on, so keys waited for Enter and echoed, and the
    /// shell's lines on screen, which ncurses, believing its copy, never painted over. So curses' modes
    /// and mouse reporting are put back, and every cell is written again.
    private func takeBackAfterStop() {
        _ = reset_prog_mode()
        mousemask(0, nil)
        mousemask(cn_all_mouse_events(), nil)
        _ = clearok(cn_stdscr(), true)
        previous = nil
    }

    /// The glyph for the cell at (x, y).
    private func glyph(_ buffer: Buffer, _ x: Int, _ y: Int) -> Glyph {
        Glyph.at(x, y, in: buffer, canWriteDirectly: canAddressCursor)
    }

    /// Writes the clusters ncurses cannot hold on the rows it just drew (see `Glyph.directWrites`).
    private func writeClustersDirectly(_ buffer: Buffer, rows: [Int]) {
        guard canAddressCursor else { return }
        let writes = Glyph.directWrites(in: buffer, rows: rows, canWriteDirectly: true)
        guard !writes.isEmpty else { return }
        for write in writes {
            let (attrs, pair) = palette.attributes(for: buffer[write.x, write.y].style)
            _ = cn_direct_put(Int32(write.y), Int32(write.x), write.text, attrs, pair)
        }
        cn_direct_end()
    }

    package func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        timeout(Int32(timeoutMilliseconds))
        var ch: wint_t = 0
        let kind = get_wch(&ch)
        if kind == ERR {
            // A wait that timed out, or a terminal that is gone: the second answers every read at once
            // (EIO), and without SIGHUP (sent to another process, or lost) the loop would spin for ever.
            if Self.inputHungUp() { hungUp = true }
            return nil
        }
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

    /// Whether standard input, the terminal curses reads, has hung up or is no longer open.
    private static func inputHungUp() -> Bool {
        var input = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
        guard poll(&input, 1, 0) == 1 else { return false }
        return input.revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0
    }
}
