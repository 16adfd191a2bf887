import Foundation

/// How a feed's pages follow one another, as `riffle inspect` prints it: the style, what page 1 says
/// about the whole feed (`Pagination.extent`), where page 2 is, and every end signal read beside the
/// items (`Pagination.saysLast`), with whether they make page 1 the last.
package struct PaginationReport: Sendable, Equatable {
    /// The style in words: "page numbers from 1 ({page} in the URL)".
    package var style: String
    package var pageCount: Int?
    package var totalItems: Int?
    /// The URL of page 2, when it is known (computed from the number, or read from page 1's answer).
    package var next: String?
    /// The cursor page 1 gives, for a cursor feed.
    package var cursor: String?
    /// The signals read beside the items, as `path: value`.
    package var signals: [String]
    /// Whether page 1 is the feed's last.
    package var isLast: Bool
}

extension PageLoader {
    /// How the feed's pages follow one another, read from page 1 as `load` returned it.
    package nonisolated func paginationReport(for page: Page) -> PaginationReport {
        let pagination = feed.pagination
        let style: String
        var next: String?
        var cursor: String?
        switch pagination.style {
        case .pageNumber(let first):
            style = "page numbers from \(first) ({page} in the URL)"
            next = page.isLastPage ? nil : pageURL(page.number + 1)?.absoluteString
        case .offset(let limit):
            style = "offsets of \(limit) ({offset} in the URL)"
            // Placed by what page 1 held when the server served fewer than the limit (`offsetStep`).
            next = page.isLastPage ? nil : pageURL(page.number + 1)?.absoluteString
        case .cursor(let path, let parameter):
            style = "a cursor: `\(parameter)=` the value at `\(path)`"
            next = link(page.number)?.next
            cursor = (try? JSONDocument(page.data, validation: .structure))?.scalar(at: JSONPath(path))?.scalarText
        case .linkHeader:
            style = "the links its answers give: the Link header's rel=\"next\", else a next link in the body"
            next = link(page.number)?.next
        }
        var signals: [String] = []
        if let document = try? JSONDocument(page.data, validation: .structure),
           let list = try? ItemExtractor.list(in: document, itemPath: feed.itemPath, fields: feed.fields) {
            signals = EndSignals(document, around: list.array, noting: true).notes ?? []
            if let path = pagination.hasMorePath, let flag = document.scalar(at: JSONPath(path)) {
                signals.insert("\(path): \(flag.scalarText ?? "null") (the feed's hasMore)", at: 0)
            }
        }
        return PaginationReport(style: style, pageCount: page.totalPages, totalItems: page.totalItems, next: next, cursor: cursor,
                                signals: signals, isLast: page.isLastPage)
    }
}
