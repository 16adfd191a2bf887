import Foundation
import RiffleKit

extension App {
    /// Enter: shows the selected item's fields.
    static func openDetail(_ state: inout AppState) {
        guard let item = state.selectedItem else { return }
        state.mode = .detail(DetailState(item: item))
    }

    /// The detail's lines at the current width.
    static func detailLines(_ detail: DetailState, size: Size) -> [StyledLine] {
        DetailView.lines(for: detail.item, width: size.width - 2, raw: detail.showsRawJSON)
    }

    static func pressInDetail(_ state: inout AppState, _ detail: DetailState, _ key: Key) -> [Effect] {
        var detail = detail
        let rows = max(1, listRows(for: state.size))
        switch key {
        case .escape, .character("q"):
            // The list kept its selection and scroll: back to the same place.
            state.mode = .list
            return []
        case .character("v"):
            detail.showsRawJSON.toggle()
            detail.scroll = 0
        case .up, .character("k"): detail.scroll -= 1
        case .down, .character("j"): detail.scroll += 1
        case .pageUp: detail.scroll -= rows
        case .pageDown, .character(" "): detail.scroll += rows
        case .control("u"): detail.scroll -= max(1, rows / 2)
        case .control("d"): detail.scroll += max(1, rows / 2)
        case .home, .character("g"): detail.scroll = 0
        case .end, .character("G"): detail.scroll = .max
        case .character("o"): return openLink(&state, detail.item)
        case .character("?"): state.overlay = .help(scroll: 0)
        case .character("L"): state.overlay = .log
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

    /// `o`: asks the run loop to open the item's link; a toast when it has none.
    static func openLink(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let text = item?.url, let url = URL(string: text) else {
            raise(&state, "no link")
            return []
        }
        return [.open(url)]
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
