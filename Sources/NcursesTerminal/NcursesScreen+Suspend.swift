import CNcursesw
import Foundation

extension NcursesScreen {
    /// Hands the terminal to `body` (a program run in the foreground, such as a terminal browser)
    /// and takes it back: curses' modes are saved and the terminal put back as it was before
    /// (normal screen, line editing, echo, cursor, no mouse reporting); afterwards curses' modes
    /// return and the whole screen is drawn again over whatever the program left.
    public func suspended(_ body: () -> Void) {
        _ = def_prog_mode()
        mousemask(0, nil)
        _ = curs_set(1)
        endwin()
        body()
        _ = reset_prog_mode()
        _ = curs_set(0)
        mousemask(cn_all_mouse_events(), nil)
        _ = clearok(cn_stdscr(), true)
        _ = refresh()
    }
}

extension NcursesScreen {
    /// Sets the terminal's clipboard to `text` with OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`), which
    /// terminals take over ssh too. Written between frames, straight to the terminal.
    public func setClipboard(_ text: String) {
        let sequence = Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
        sequence.withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }
                offset += written
            }
        }
    }
}
