import Foundation
import RiffleKit

extension App {
    /// `y`: the item's link to the clipboard.
    static func yankLink(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        guard let link = item.url, !link.isEmpty else {
            raise(&state, "no link to copy")
            return []
        }
        return [.copy(link, what: "link")]
    }

    /// `Y`: the item's JSON, as the server sent its fields, to the clipboard.
    static func yankJSON(_ state: inout AppState, _ item: Item?) -> [Effect] {
        guard let item else { return [] }
        var text = ""
        JSONWriter.write(item.fields, into: &text)
        return [.copy(text, what: "JSON")]
    }
}
