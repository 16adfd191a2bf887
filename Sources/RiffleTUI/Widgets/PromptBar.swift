/// The bottom line while a line is typed: its label ("search: ") and the text with a cursor.
package struct PromptBar: Sendable {
    package var prompt: Prompt

    package init(prompt: Prompt) { self.prompt = prompt }

    /// Draws the bar on the first row of `area`.
    package func render(into buffer: inout Buffer, area: Rect) {
        guard !area.isEmpty else { return }
        buffer.fill(Rect(x: area.x, y: area.y, width: area.width, height: 1))
        var x = area.x + 1
        x += buffer.write(prompt.label, x: x, y: area.y, maxWidth: area.width - 2, style: Style(.accent, bold: true))
        prompt.field.render(into: &buffer, x: x, y: area.y, width: area.maxX - x - 1)
    }
}
