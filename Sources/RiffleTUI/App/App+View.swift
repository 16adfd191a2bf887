import Foundation
import RiffleKit

extension App {
    /// Draws the whole screen for `state`. Pure: the same state always gives the same buffer.
    ///
    /// The screen shown draws its header (line 0), its body and its status bar (the last line); then
    /// the toasts go over the bottom of the body, and the overlays (a line being typed, the help or
    /// the log) over everything.
    package static func view(_ state: AppState) -> Buffer {
        var buffer = Buffer(size: state.size)
        let area = buffer.area
        guard area.width >= minimumSize.width, area.height >= minimumSize.height else {
            Centered(text: area.width >= 18 ? "terminal too small" : "too small", style: Style(.error)).render(into: &buffer, area: area)
            return buffer
        }
        let screen = state.shownContent
        screen.render(state, into: &buffer)
        renderToasts(state, into: &buffer, keepingClear: screen.rowToKeepClear(state))
        for overlay in state.screens.overlays { overlay.render(state, into: &buffer) }
        return buffer
    }

    /// The toasts, drawn once for every screen, all in one corner: the bottom right of the body, or
    /// its top right when they would cover the row the screen keeps clear (the list's selected row);
    /// when neither side has room for all of them, the newest that fit on the roomier side.
    static func renderToasts(_ state: AppState, into buffer: inout Buffer, keepingClear row: Int?) {
        let messages = state.visibleToasts.map(\.message)
        guard !messages.isEmpty else { return }
        let body = listArea(for: state.size)
        guard let row else {
            ToastStack(messages: messages).render(into: &buffer, area: body)
            return
        }
        let above = max(0, min(body.height, row - body.y))
        let below = max(0, min(body.height, body.maxY - row - 1))
        if messages.count <= below || below >= above {
            ToastStack(messages: messages).render(into: &buffer, area: Rect(x: body.x, y: body.maxY - below, width: body.width, height: below))
        } else {
            let shown = min(messages.count, above)
            ToastStack(messages: messages).render(into: &buffer, area: Rect(x: body.x, y: body.y, width: body.width, height: shown))
        }
    }
}
