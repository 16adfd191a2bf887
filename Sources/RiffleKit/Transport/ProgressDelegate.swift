import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// A per-task delegate that turns URLSession's byte counts into `TransferProgress`.
///
/// Per task, not per session: on Linux a session delegate gets no `didSendBodyData` callbacks for the
/// async `upload(for:from:)`, while a per-task delegate does (SWIFT-ON-LINUX.md §2).
/// Callbacks arrive on the session's queue and may come after the async call has returned, so
/// `finish` reports the final totals itself and later callbacks are dropped; counts never go back.
final class ProgressDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State {
        var uploaded: Int64 = 0
        var downloaded: Int64 = 0
        var finished = false
    }

    private let report: @Sendable (TransferProgress) -> Void
    private let state = Mutex(State())

    init(_ report: @escaping @Sendable (TransferProgress) -> Void) { self.report = report }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64,
                    totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        let step = TransferProgress(direction: .upload, completed: totalBytesSent,
                                    expected: totalBytesExpectedToSend > 0 ? totalBytesExpectedToSend : nil)
        // Reported inside the lock so steps reach the reader in order.
        state.withLock { state in
            guard !state.finished, totalBytesSent > state.uploaded else { return }
            state.uploaded = totalBytesSent
            report(step)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let expected = dataTask.countOfBytesExpectedToReceive
        state.withLock { state in
            guard !state.finished else { return }
            state.downloaded += Int64(data.count)
            report(TransferProgress(direction: .download, completed: state.downloaded, expected: expected > 0 ? expected : nil))
        }
    }

    /// Reports the final totals (when callbacks have not yet) and ignores any callback still to come.
    func finish(uploaded: Int64?, downloaded: Int64) {
        state.withLock { state in
            state.finished = true
            if let uploaded, uploaded > state.uploaded {
                report(TransferProgress(direction: .upload, completed: uploaded, expected: uploaded))
            }
            if downloaded > state.downloaded || downloaded == 0 {
                report(TransferProgress(direction: .download, completed: downloaded, expected: downloaded))
            }
        }
    }
}
