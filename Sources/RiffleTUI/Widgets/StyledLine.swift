/// One line of text made of differently styled pieces, e.g. a field's key and its value.
package struct StyledLine: Sendable, Equatable {
    /// A piece of text in one style.
    package struct Span: Sendable, Equatable {
        /// The text, sanitised when drawn.
        package var text: String
        /// How it is drawn.
        package var style: Style
        /// A piece of `text` in `style`.
        package init(_ text: String, _ style: Style = .normal) {
            self.text = text
            self.style = style
        }
    }

    /// The pieces, left to right.
    package var spans: [Span]

    /// A line of `spans`.
    package init(_ spans: [Span]) { self.spans = spans }

    /// A line of one piece of text.
    package init(_ text: String, _ style: Style = .normal) { self.init([Span(text, style)]) }

    /// The line's text without styles.
    package var text: String { spans.map(\.text).joined() }

    /// Draws the line on row `y` from `x`, cut at `maxX`.
    package func render(into buffer: inout Buffer, x: Int, y: Int, maxX: Int) {
        var column = x
        for span in spans where column < maxX {
            column += buffer.write(span.text, x: column, y: y, maxWidth: maxX - column, style: span.style)
        }
    }
}
