import Foundation
import RiffleKit

extension App {
    /// `y`: the item's link to the clipboard, as `o` would open it: one word of printable ASCII
    /// (`InertLink`), so a paste can neither end a bracketed paste nor start a line.
    static func yankLink(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        guard let link = item.url.map(InertLink.encode), !link.isEmpty else {
            raise(&state, "no link to copy")
            return []
        }
        return [.copy(link, what: "link")]
    }

    /// `Y`: the item's JSON, as the server sent its fields, to the clipboard: one line, with every
    /// control (C0, DEL, C1), bidirectional control and line separator written as a `\u` escape, so
    /// it reads back as the same JSON and pastes as inert text.
    static func yankJSON(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        var text = ""
        JSONWriter.write(item.fields, into: &text)
        return [.copy(Sanitizer.json(text), what: "JSON")]
    }
}
