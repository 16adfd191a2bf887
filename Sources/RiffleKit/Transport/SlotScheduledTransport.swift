import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A transport that can take its turn from PageLoader's fetch slots itself: it queues the start of
/// the transfer with the slots and frees its slot on the thread that read the answer, so the next
/// queued request is sent from there at once (see `FetchSlots.schedule`). Internal: the slots are
/// PageLoader's.
protocol SlotScheduledTransport: HTTPTransporting {
    /// Sends `request` when `slots` has room, and releases the slot as soon as the response is read.
    func send(_ request: URLRequest, slots: FetchSlots) async throws(RiffleError) -> HTTPResponse
}

extension HTTPTransporting {
    /// Sends `request` holding one of `slots` for the transfer only: the transport's own scheduling
    /// when it has one, else wait for a slot, send, and release.
    func send(_ request: URLRequest, slots: FetchSlots) async throws(RiffleError) -> HTTPResponse {
        if let scheduled = self as? any SlotScheduledTransport { return try await scheduled.send(request, slots: slots) }
        return try await sendHoldingSlot(request, slots)
    }

    /// Waits for one of `slots`, sends, and frees the slot.
    func sendHoldingSlot(_ request: URLRequest, _ slots: FetchSlots) async throws(RiffleError) -> HTTPResponse {
        await slots.acquire()
        defer { slots.release() }
        return try await send(request)
    }
}

extension DefaultTransport: SlotScheduledTransport {
    func send(_ request: URLRequest, slots: FetchSlots) async throws(RiffleError) -> HTTPResponse {
        if LoopbackTransport.canSend(request) { return try await loopback.send(request, slots: slots) }
        return try await remote.sendHoldingSlot(request, slots)
    }
}
