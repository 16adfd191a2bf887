import Foundation
import RiffleKit

extension App {
    /// Enter: shows the selected item's fields; opening it is seeing it.
    static func openDetail(_ state: inout AppState) -> [Effect] {
        guard let item = state.selectedItem else { return [] }
        state.back.append(state.mode)
        state.mode = .detail(DetailState(item: item))
        return markSeen(&state, [item])
    }

    /// The detail's lines at the current width.
    static func detailLines(_ detail: DetailState, size: Size) -> [StyledLine] {
        DetailView.lines(for: detail.item, width: size.width - 2, raw: detail.showsRawJSON)
    }

    static func pressInDetail(_ state: inout AppState, _ detail: DetailState, _ key: Key) -> [Effect] {
        var detail = detail
        let rows = max(1, listRows(for: state.size))
        guard let command = state.keymap.command(for: key) else { return [] }
        switch command {
        case .back, .quit:
            // The list kept its selection and scroll: back to the same place.
            return leave(&state)
        case .rawJSON:
            detail.showsRawJSON.toggle()
            detail.scroll = 0
        case .up: detail.scroll -= 1
        case .down: detail.scroll += 1
        case .pageUp: detail.scroll -= rows
        case .pageDown: detail.scroll += rows
        case .halfUp: detail.scroll -= max(1, rows / 2)
        case .halfDown: detail.scroll += max(1, rows / 2)
        case .first: detail.scroll = 0
        case .last: detail.scroll = .max
        case .openLink: return openLink(&state, detail.item)
        case .comments: return openComments(&state, detail.item)
        case .discussion: return openDiscussion(&state, detail.item)
        case .yankLink: return yankLink(&state, detail.item)
        case .yankJSON: return yankJSON(&state, detail.item)
        case .help: state.overlay = .help(scroll: 0)
        case .log: state.overlay = .log
        default: return []
        }
        scrollDetail(&state, detail, by: 0)
        return []
    }

    /// Scrolls the detail by `delta` lines, stopping at the ends.
    static func scrollDetail(_ state: inout AppState, _ detail: DetailState, by delta: Int) {
        var detail = detail
        let count = detailLines(detail, size: state.size).count
        let last = max(0, count - listRows(for: state.size))
        detail.scroll = max(0, min(last, detail.scroll.addingReportingOverflow(delta).partialValue))
        state.mode = .detail(detail)
    }

    /// `o`: asks the run loop to open the item's link; a toast when it has none. Opening it is seeing it.
    static func openLink(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item, let text = item.url, let url = URL(string: InertLink.encode(text)) else {
            raise(&state, "no link")
            return []
        }
        return [.open(url)] + (state.mode == .list ? markSeen(&state, [item]) : [])
    }

    /// The detail screen: the item's title, its lines, and where the reader is.
    static func renderDetail(_ detail: DetailState, state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: Sanitizer.clean(detail.item.title), hint: "q back").render(into: &buffer, area: area)
        let lines = detailLines(detail, size: state.size)
        DetailView(lines: lines, scroll: detail.scroll).render(into: &buffer, area: listArea(for: state.size))
        let last = min(lines.count, detail.scroll + listRows(for: state.size))
        let facts = [detail.showsRawJSON ? "raw JSON" : "fields", "lines \(min(lines.count, detail.scroll + 1))-\(last) of \(lines.count)",
                     detail.showsRawJSON ? "v fields" : "v raw JSON"]
        StatusBar(facts: facts).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}
