import Foundation
import RiffleKit

/// Work `App.update` asks the run loop to do; its results come back as `Action`s.
public enum Effect: Sendable, Equatable {
    /// Load a page with `PageLoader`; answer with `.pageLoaded` or `.pageFailed`.
    case load(page: Int, policy: CachePolicy)
    /// Open a link in the user's browser (`o`).
    case open(URL)
    /// Restore the terminal and exit.
    case quit
}
