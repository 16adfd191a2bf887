import Foundation

extension PageStore {
    /// Replaces `page`'s metadata alone (after a 304 the body stays as it is).
    func writeMetadata(_ page: Int, _ metadata: Metadata) {
        try? AtomicFile.write(Self.encodeMetadata(metadata), to: metadataURL(page))
    }

    /// Removes `page`'s metadata alone: before a page is fetched for another identity than the one its
    /// file was stored for, so no reader ever pairs the new bytes with the old identity.
    func removeMetadata(_ page: Int) {
        try? FileManager.default.removeItem(atPath: metadataPath(page))
    }
}
