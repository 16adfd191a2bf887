import Foundation
import RiffleKit

/// Something that happened: the input of `App.update`.
public enum Action: Sendable, Equatable {
    /// The initial load; the run loop sends it once, first.
    case start
    /// A key, mouse or resize event from the terminal.
    case event(TerminalEvent)
    /// The clock moved; sent about every 80 ms while `AppState.isAnimating`.
    case tick(Date)
    /// A `.load` effect finished.
    case pageLoaded(Page)
    /// A `.load` effect failed; the toast shows the error's one-line description.
    case pageFailed(page: Int, error: RiffleError)
    /// Something worth a toast that is not about a page (e.g. no program to open links with).
    case notice(String)
}
