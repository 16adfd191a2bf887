import Foundation

extension PageStore {
    /// Replaces `page`'s metadata alone (after a 304 the body stays as it is).
    func writeMetadata(_ page: Int, _ metadata: Metadata) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        try? encoder.encode(metadata).write(to: metadataURL(page), options: .atomic)
    }
}
