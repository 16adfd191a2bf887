import CNcursesw

extension NcursesScreen {
    /// Hands the terminal to `body` (a program run in the foreground, such as a terminal browser)
    /// and takes it back: curses' modes are saved and the terminal put back as it was before
    /// (normal screen, line editing, echo, cursor, no mouse reporting); afterwards curses' modes
    /// return and the whole screen is drawn again over whatever the program left.
    package func suspended(_ body: () -> Void) {
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
