import Foundation

extension PageStore {
    /// Replaces `page`'s metadata alone (after a 304 the body stays as it is).
    func writeMetadata(_ page: Int, _ metadata: Metadata) {
        try? AtomicFile.write(Self.encodeMetadata(metadata), to: metadataURL(page))
    }
}
