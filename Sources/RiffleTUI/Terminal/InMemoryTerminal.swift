import Foundation

/// A `TerminalBackend` for tests: keeps the frames drawn and hands out queued events, waiting for
/// them as a real terminal would. A run loop may use it on one thread while a test sends keys and
/// reads frames on another.
///
/// ```swift
/// let state = AppState(feedTitle: "demo", size: Size(width: 40, height: 8), now: Date())
/// let terminal = InMemoryTerminal(size: Size(width: 40, height: 8), events: [.key(.down)])
/// terminal.draw(App.view(state))
/// terminal.lastFrame?.description
/// ```
package final class InMemoryTerminal: TerminalBackend, @unchecked Sendable {
    // @unchecked: every stored property after `condition` is read and written with it locked.
    private let condition = NSCondition()
    private var _size: Size
    private var _frames: [Buffer] = []
    private var _drawCount = 0
    private var _pendingEvents: [TerminalEvent]
    private var _quitSignals: [Int32] = []
    private var _restoreCount = 0

    /// A terminal of `size` that will hand out `events` in order.
    package init(size: Size, events: [TerminalEvent] = []) {
        _size = size
        _pendingEvents = events
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    /// The size it reports; changed by a queued resize.
    package var size: Size { locked { _size } }
    /// The last buffer drawn; nil before the first frame.
    package var lastFrame: Buffer? { locked { _frames.last } }
    /// Every frame drawn that differs from the one before it, first one first.
    package var frames: [Buffer] { locked { _frames } }
    /// How many frames were drawn.
    package var drawCount: Int { locked { _drawCount } }
    /// Events still to be returned by `nextEvent`, first one next.
    package var pendingEvents: [TerminalEvent] { locked { _pendingEvents } }
    /// Whether `restore()` was called.
    package var isRestored: Bool { locked { _restoreCount > 0 } }

    /// Keeps `buffer` as `lastFrame` (and in `frames` when it differs from the last one).
    package func draw(_ buffer: Buffer) {
        locked {
            if _frames.last != buffer { _frames.append(buffer) }
            _drawCount += 1
            condition.broadcast()
        }
    }

    /// The next queued event, waiting up to `timeoutMilliseconds` for one; nil when none came.
    package func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        let deadline = Date(timeIntervalSinceNow: Double(max(0, timeoutMilliseconds)) / 1000)
        return locked {
            while _pendingEvents.isEmpty, _quitSignals.isEmpty, condition.wait(until: deadline) {}
            return _pendingEvents.isEmpty ? nil : _pendingEvents.removeFirst()
        }
    }

    /// Queues an event; a resize also changes `size`, as a real terminal's would.
    package func send(_ event: TerminalEvent) {
        locked {
            _pendingEvents.append(event)
            if case .resize(let newSize) = event { _size = newSize }
            condition.broadcast()
        }
    }

    /// Delivers a signal such as SIGTERM, as the ncurses terminal reports one.
    package func sendQuitSignal(_ signal: Int32) {
        locked {
            _quitSignals.append(signal)
            condition.broadcast()
        }
    }

    package func takeQuitSignal() -> Int32? {
        locked { _quitSignals.isEmpty ? nil : _quitSignals.removeFirst() }
    }

    /// Records that the terminal was put back.
    package func restore() {
        locked {
            _restoreCount += 1
            condition.broadcast()
        }
    }

    /// Waits up to `timeout` seconds for a frame for which `matches` holds: the last one drawn or one
    /// drawn after it. Returns that frame, or nil when none came in time.
    package func waitForFrame(timeout: TimeInterval = 10, where matches: (Buffer) -> Bool) -> Buffer? {
        let deadline = Date(timeIntervalSinceNow: timeout)
        return locked {
            var next = max(0, _frames.count - 1)
            while true {
                if let frame = _frames[next...].first(where: matches) { return frame }
                next = _frames.count
                if !condition.wait(until: deadline) { return _frames[next...].first(where: matches) }
            }
        }
    }
}
