import Foundation

extension NcursesScreen {
    /// Sets the terminal's clipboard to `text` with OSC 52 (`ESC ] 52 ; c ; BASE64 BEL`), which
    /// terminals take over ssh too (tmux passes it on, or keeps it as a paste buffer, when its
    /// `set-clipboard` option is `on`). Written between frames, straight to the terminal.
    /// - Returns: whether the whole sequence was written.
    @discardableResult
    package func setClipboard(_ text: String) -> Bool {
        Self.clipboardSequence(text).withUnsafeBytes { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = write(STDOUT_FILENO, bytes.baseAddress! + offset, bytes.count - offset)
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return false }
                offset += written
            }
            return true
        }
    }

    /// The bytes `setClipboard` writes for `text`: `ESC ] 52 ; c ; BASE64 BEL`. What a paste then
    /// types is `text` exactly, so its callers make it inert (`App.yankLink`, `App.yankJSON`).
    static func clipboardSequence(_ text: String) -> [UInt8] {
        Array("\u{1B}]52;c;\(Data(text.utf8).base64EncodedString())\u{07}".utf8)
    }
}
