/// A `TerminalBackend` for tests: keeps the last frame drawn and hands out queued events.
///
/// ```swift
/// let terminal = InMemoryTerminal(size: Size(width: 40, height: 8), events: [.key(.down)])
/// terminal.draw(App.view(state))
/// terminal.lastFrame?.description
/// ```
public final class InMemoryTerminal: TerminalBackend {
    /// The size it reports; changed by a queued resize.
    public private(set) var size: Size
    /// The last buffer drawn; nil before the first frame.
    public private(set) var lastFrame: Buffer?
    /// How many frames were drawn.
    public private(set) var drawCount = 0
    /// Events still to be returned by `nextEvent`, first one next.
    public private(set) var pendingEvents: [TerminalEvent]

    /// A terminal of `size` that will hand out `events` in order.
    public init(size: Size, events: [TerminalEvent] = []) {
        self.size = size
        self.pendingEvents = events
    }

    /// Keeps `buffer` as `lastFrame`.
    public func draw(_ buffer: Buffer) {
        lastFrame = buffer
        drawCount += 1
    }

    /// Pops the next queued event without waiting; nil when the queue is empty.
    public func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent? {
        pendingEvents.isEmpty ? nil : pendingEvents.removeFirst()
    }

    /// Queues an event; a resize also changes `size`, as a real terminal's would.
    public func send(_ event: TerminalEvent) {
        pendingEvents.append(event)
        if case .resize(let newSize) = event { size = newSize }
    }
}
