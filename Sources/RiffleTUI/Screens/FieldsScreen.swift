import Foundation
import RiffleKit

/// A choice the field picker makes: read `part` from `path`, or find it automatically again (nil).
package struct FieldPick: Sendable, Equatable {
    /// The parts of a row the picker chooses, named as feeds.json's `fields` names them.
    package enum Part: String, CaseIterable, Sendable {
        case title, link, subtitle, time, author

        /// The part of the plan it is; nil for the subtitle, which the plan does not infer (the
        /// author and the counts stand in its place).
        package var planPart: FieldPlan.Part? {
            switch self {
            case .title: .title
            case .link: .link
            case .time: .time
            case .author: .author
            case .subtitle: nil
            }
        }
    }

    package var part: Part
    /// The path to read it from; nil: found automatically, as without a pin.
    package var path: JSONPath?

    package init(part: Part, path: JSONPath?) {
        self.part = part
        self.path = path
    }
}

/// The field picker (`e` on the list): the selected item's fields with their values, and for each
/// part of a row (title, link, subtitle, time, author) the path it is read from and why, with the
/// paths that came close, in the words `riffle inspect` prints (`FieldPlan.explanation`). Enter on a
/// part lists the paths it may take ("automatic" first); Enter on one pins it (`Effect.pinField`):
/// the list is read again at once and the choice is saved to feeds.json.
package struct FieldsScreen: Sendable, Equatable {
    /// The item whose fields are shown (a copy).
    package let item: Item
    /// The page it is on, whose plan is shown.
    package let page: Int
    /// How the page is read; nil until it is worked out (`Action.fieldsPlanned`).
    package var plan: FieldPlan?
    /// The subtitle's paths as the feed names them (empty: the author and the counts).
    package var subtitle: [JSONPath] = []
    /// Why there is no plan, when it could not be worked out.
    package var failure: String?
    /// The part whose path is being chosen; nil while the parts are listed.
    package var choosing: FieldPick.Part?
    /// The selected part (while listing parts) or path row (while choosing).
    package var selection = 0
    /// The first line drawn.
    package var scroll = 0
    /// The item's values, path by path.
    package let leaves: [Leaf]

    /// One value of the item and where it is.
    package struct Leaf: Sendable, Equatable {
        package var path: JSONPath
        /// The value as JSON text, on one line.
        package var sample: String
    }

    /// The most values listed: an item of thousands of fields lists its first ones.
    static let maxLeaves = 300

    package init(item: Item, page: Int) {
        self.item = item
        self.page = page
        leaves = Self.leaves(of: item.fields)
    }

    /// Every scalar in `value` with its path: arrays by their first three elements, at most five
    /// levels down, at most `maxLeaves`.
    static func leaves(of value: JSONValue) -> [Leaf] {
        var leaves: [Leaf] = []
        func visit(_ value: JSONValue, _ path: JSONPath) {
            guard leaves.count < maxLeaves else { return }
            switch value {
            case .object(let object) where object.count > 0 && path.components.count < 5:
                for member in object.members { visit(member.value, path.appending(member.key)) }
            case .array(let elements) where !elements.isEmpty && path.components.count < 5:
                for (i, element) in elements.prefix(3).enumerated() { visit(element, path.appending(String(i))) }
            default:
                if !path.isEmpty { leaves.append(Leaf(path: path, sample: sample(value))) }
            }
        }
        visit(value, [])
        return leaves
    }

    /// A value as one line of JSON, cut to a reasonable length.
    static func sample(_ value: JSONValue) -> String {
        var text = ""
        JSONWriter.write(value, into: &text)
        return text.count > 200 ? String(text.prefix(199)) + "…" : text
    }

    /// The paths `part` may take, in the order listed after "automatic": the plan's candidates,
    /// best first, then the item's other values.
    func paths(for part: FieldPick.Part) -> [JSONPath] {
        var paths: [JSONPath] = []
        if let planPart = part.planPart, let plan {
            let choice = plan[planPart]
            if choice.configured, let path = choice.path { paths.append(path) }
            paths += choice.candidates.map(\.path).filter { !paths.contains($0) }
        }
        if part == .subtitle { paths += subtitle }
        var seen = Set(paths)
        for leaf in leaves where seen.insert(leaf.path).inserted { paths.append(leaf.path) }
        return paths
    }

    /// The path `part` is pinned to now, if the feed pins it.
    func pinned(_ part: FieldPick.Part) -> JSONPath? {
        guard let planPart = part.planPart else { return subtitle.first }
        guard let choice = plan?[planPart], choice.configured else { return nil }
        return choice.path
    }

    /// Where `part` comes from now, with the runners-up: the plan's words.
    func explanation(of part: FieldPick.Part) -> [String] {
        guard let planPart = part.planPart else {
            return subtitle.isEmpty ? ["automatic: the author and the counts"]
                : [subtitle.map { "`\($0)`" }.joined(separator: ", ") + ": the feed's `fields`"]
        }
        return plan?.explanation(of: planPart) ?? []
    }

    /// How many rows can be selected.
    var rowCount: Int {
        guard let choosing else { return FieldPick.Part.allCases.count }
        return 1 + paths(for: choosing).count
    }
}

extension App {
    /// `e` on the list: the field picker for the selected item, its page's plan asked for.
    static func showFieldPicker(_ state: inout AppState) -> [Effect] {
        guard let item = state.list.selectedItem, let page = state.list.selectedPage?.number else {
            raise(&state, "no item to pick fields from")
            return []
        }
        state.screens.push(.fields(FieldsScreen(item: item, page: page)))
        return [.planFields(page: page)]
    }

    /// The plan of the picker's page came (or could not be worked out: `failure`).
    static func receiveFieldPlan(_ plan: FieldPlan?, subtitle: [JSONPath], failure: String?, page: Int, in state: inout AppState) {
        guard var screen = state.screens.shown(as: FieldsScreen.self), screen.page == page else { return }
        screen.plan = plan
        screen.subtitle = subtitle
        screen.failure = failure
        state.screens.shown = .fields(screen)
    }

    /// A pick was saved: the loaded pages, read with it, take the place of the ones shown (the
    /// selection stays on its item), and a toast says where it was saved.
    static func receivePinnedFields(_ message: String, pages: [Page], in state: inout AppState) {
        for page in pages where !page.items.isEmpty {
            guard let k = state.list.pages.position(of: page.number) else { continue }
            var loaded = LoadedPage(page)
            loaded.info = state.list.pages.all[k].info
            replace(&state, at: k, with: loaded, merging: false)
        }
        raise(&state, message)
    }
}

extension FieldsScreen: StackedScreen {
    init?(_ screen: Screen) {
        guard case .fields(let fields) = screen else { return nil }
        self = fields
    }

    var screen: Screen { .fields(self) }

    // MARK: Keys

    static func press(_ command: Command, in state: inout AppState) -> [Effect]? {
        guard var screen = state.screens.shown(as: FieldsScreen.self) else { return nil }
        let rows = max(1, App.listRows(for: state.size))
        switch command {
        case .down, .up, .first, .last, .pageDown, .pageUp, .halfDown, .halfUp:
            let count = screen.rowCount
            let moved = command.moved(screen.selection, count: count, rows: rows) ?? screen.selection
            screen.selection = max(0, min(count - 1, moved))
        case .open:
            guard screen.plan != nil || screen.failure != nil else { return [] }
            guard let part = screen.choosing else {
                let part = FieldPick.Part.allCases[screen.selection]
                screen.choosing = part
                // On the path in force: "automatic" unless the feed pins one.
                screen.selection = screen.pinned(part).flatMap { pinned in screen.paths(for: part).firstIndex(of: pinned).map { $0 + 1 } } ?? 0
                screen.scroll = 0
                break
            }
            let path = screen.selection == 0 ? nil : screen.paths(for: part)[screen.selection - 1]
            state.screens.pop()
            return [.pinField(FieldPick(part: part, path: path))]
        case .back, .quit:
            // Choosing a path: back to the parts; else back to the list.
            guard let part = screen.choosing else { return nil }
            screen.choosing = nil
            screen.selection = FieldPick.Part.allCases.firstIndex(of: part) ?? 0
            screen.scroll = 0
        case .edit:
            return []
        default:
            return nil
        }
        screen.keepSelectionVisible(size: state.size)
        state.screens.shown = .fields(screen)
        return []
    }

    mutating func resized(to size: Size) { keepSelectionVisible(size: size) }

    /// Scrolls so the selected row is in view.
    mutating func keepSelectionVisible(size: Size) {
        let (lines, rows) = layout(width: size.width)
        let height = max(1, App.listRows(for: size))
        guard rows.indices.contains(selection) else { return }
        let line = rows[selection]
        // The selected part shows whole with its runners-up when they fit.
        let end = choosing == nil && selection + 1 < rows.count ? rows[selection + 1] : line + 1
        if line < scroll { scroll = line }
        if end > scroll + height { scroll = min(line, end - height) }
        scroll = max(0, min(scroll, max(0, lines.count - height)))
    }

    // MARK: View

    /// The lines drawn for a screen `width` wide, and the line of each selectable row.
    func layout(width: Int) -> (lines: [StyledLine], rows: [Int]) {
        var lines: [StyledLine] = []
        var rows: [Int] = []
        let dim = Style(.dim, dim: true)
        if let failure {
            lines.append(StyledLine(" the page's plan could not be worked out: \(failure)", Style(.placeholder)))
            lines.append(StyledLine(""))
        } else if plan == nil {
            lines.append(StyledLine(" reading the page…", Style(.placeholder, dim: true)))
            lines.append(StyledLine(""))
        }
        guard let part = choosing else {
            let nameWidth = FieldPick.Part.allCases.map(\.rawValue.count).max() ?? 8
            for part in FieldPick.Part.allCases {
                let name = part.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                let explained = explanation(of: part)
                rows.append(lines.count)
                lines.append(StyledLine([.init(" \(name)  ", Style(.accent, bold: true)), .init(explained.first ?? "")]))
                for line in explained.dropFirst() {
                    lines.append(StyledLine([.init(String(repeating: " ", count: nameWidth + 3)), .init(line, dim)]))
                }
            }
            lines.append(StyledLine(""))
            lines.append(StyledLine(" this item's fields", Style(.accent, bold: true)))
            let pathWidth = min(max(8, leaves.map { TextWidth.width(of: $0.path.description) }.max() ?? 0), max(8, width / 3))
            for leaf in leaves {
                lines.append(StyledLine([.init("   " + Self.padded(leaf.path.description, to: pathWidth) + "  "), .init(leaf.sample, dim)]))
            }
            return (lines, rows)
        }
        lines.append(StyledLine(" \(part.rawValue): which path? Enter chooses, Esc goes back", dim))
        let paths = paths(for: part)
        let pinned = pinned(part)
        let candidates = part.planPart.flatMap { plan?[$0].candidates } ?? []
        let pathWidth = min(max(9, paths.map { TextWidth.width(of: $0.description) }.max() ?? 0), max(9, width / 3))
        func marker(_ current: Bool) -> String { current ? " ● " : "   " }
        rows.append(lines.count)
        let automatic = part.planPart.flatMap { plan?[$0].candidates.first }
        lines.append(StyledLine([.init(marker(pinned == nil) + Self.padded("automatic", to: pathWidth) + "  "),
                                 .init(automatic.map { "`\($0.path)` (\(FieldPlan.number($0.score))): " + $0.reasons.joined(separator: "; ") }
                                       ?? (part == .subtitle ? "the author and the counts" : "none: no path looks like one"), dim)]))
        for path in paths {
            rows.append(lines.count)
            let value = leaves.first { $0.path == path }?.sample ?? item.fields.value(at: path).map(Self.sample) ?? "(not in this item)"
            var spans: [StyledLine.Span] = [.init(marker(pinned == path) + Self.padded(path.description, to: pathWidth) + "  "),
                                            .init(value)]
            if let candidate = candidates.first(where: { $0.path == path }) {
                spans.append(.init("  (\(FieldPlan.number(candidate.score))) " + candidate.reasons.joined(separator: "; "), dim))
            }
            lines.append(StyledLine(spans))
        }
        return (lines, rows)
    }

    static func padded(_ text: String, to width: Int) -> String {
        let cut = TextWidth.truncate(text, to: width)
        return cut + String(repeating: " ", count: max(0, width - TextWidth.width(of: cut)))
    }

    /// The item's title, the parts (or one part's paths) and the item's values.
    func render(_ state: AppState, into buffer: inout Buffer) {
        let area = buffer.area
        Header(title: "fields · " + item.title, hint: choosing == nil ? "Enter picks a part · q back" : "Enter chooses · Esc back")
            .render(into: &buffer, area: Rect(x: 0, y: 0, width: area.width, height: 1))
        let list = App.listArea(for: state.size)
        let (lines, rows) = layout(width: list.width)
        let selected = rows.indices.contains(selection) ? rows[selection] : nil
        for (row, index) in (scroll..<min(lines.count, scroll + list.height)).enumerated() {
            let y = list.y + row
            if index == selected {
                buffer.fill(Rect(x: list.x, y: y, width: list.width, height: 1), style: Style(.selection))
                let plain = StyledLine(lines[index].spans.map { StyledLine.Span($0.text, Style(.selection, bold: $0.style.bold)) })
                plain.render(into: &buffer, x: list.x, y: y, maxX: list.maxX - 1)
            } else {
                lines[index].render(into: &buffer, x: list.x, y: y, maxX: list.maxX - 1)
            }
        }
        let on = choosing.map { part in selection == 0 ? "automatic" : paths(for: part)[safe: selection - 1]?.description ?? "" }
        let facts = [choosing.map { "\($0.rawValue) ← \(on ?? "")" } ?? "title, link, subtitle, time, author",
                     "page \(page)", plan.map { "judged on \($0.sampled) items" } ?? "", "saved to feeds.json"].filter { !$0.isEmpty }
        StatusBar(facts: facts, dropOrder: [3, 2, 1]).render(into: &buffer, area: Rect(x: 0, y: area.height - 1, width: area.width, height: 1))
    }
}

