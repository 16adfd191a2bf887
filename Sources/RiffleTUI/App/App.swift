/// The browser's two pure functions: `update` (state + action → effects) and `view` (state → buffer).
///
/// The run loop owns the terminal and the loader: it feeds every event and result to `update`, runs
/// the effects it returns, and draws `view(state)` after each change. Nothing here does I/O.
package enum App {
    /// Below this the screen shows only "terminal too small": nothing useful fits.
    package static let minimumSize = Size(width: 20, height: 5)

    /// Rows of the screen that are not the list: the header and the status bar.
    static let chromeRows = 2

    /// How many list rows fit on a screen of `size`.
    static func listRows(for size: Size) -> Int {
        max(0, size.height - chromeRows)
    }

    /// Where the list is drawn: between the header and the status bar.
    static func listArea(for size: Size) -> Rect {
        Rect(x: 0, y: 1, width: size.width, height: listRows(for: size))
    }
}
