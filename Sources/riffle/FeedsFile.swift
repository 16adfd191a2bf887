import Foundation
import RiffleKit

/// The user's feeds file as riffle changes it (the field picker, `riffle add`, renaming and removing
/// in the feed list): one member edited in the text (`JSONTextEditor`), the rest byte for byte as
/// written, the result checked to read as a feeds file, then written atomically (a temporary file in
/// the same folder, synced, renamed over it). A file riffle creates is 0600 in a 0700 folder; an
/// existing one keeps its mode, and a read-only one is left alone (`isReadOnly`). A link to the
/// file is followed: the file it names is replaced.
struct FeedsFile {
    /// Where the file is.
    let path: String
    /// The presets, which its entries may name.
    let presets: FeedCatalog

    /// Why the file could not be changed: one line naming the file (nothing was written).
    struct Problem: Error, Equatable, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The file's bytes; empty when there is none.
    func read() throws(Problem) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return Data() }
        guard !isFolder.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw Problem("\(path): \(isFolder.boolValue ? "a folder, not a file" : "not readable")")
        }
        return data
    }

    /// The feeds the file holds now.
    func catalog() throws(Problem) -> FeedCatalog {
        let data = try read()
        guard !data.allSatisfy(JSONTextEditor.isSpace) else { return FeedCatalog() }
        do { return try FeedCatalog.parse(data, file: path, presets: presets) } catch { throw Problem(error.description) }
    }

    /// Applies `change` to the file's text and writes the result, once it reads as a feeds file.
    /// - Throws: `Problem` naming the file: it is read-only, not JSON, not an object, `change`'s own
    ///   problem, or the result would not read (nothing is written then).
    func edit(_ change: (inout JSONTextEditor) throws(Problem) -> Void) throws(Problem) {
        // Read, changed and replaced under the folder's lock: two edits at once (scripts running
        // `riffle add` in parallel, a pick in the browser meanwhile) each see the other's result.
        let lock = try Self.lockFolder(of: path)
        defer { close(lock) }
        if Self.isReadOnly(path) { throw Problem("\(path) is read-only: nothing was written (make it writable to change its feeds)") }
        let original = try read()
        var editor: JSONTextEditor
        do { editor = try JSONTextEditor(original) } catch {
            switch error {
            case .syntax(let line, let reason): throw Problem("\(path):\(line): not valid JSON: \(reason)")
            default: throw Problem("\(path): \(error)")
            }
        }
        if let feeds = editor.value(at: ["feeds"]), feeds.objectValue == nil {
            throw Problem("\(path): field 'feeds': expected an object of feeds by name, got \(JSONTextEditor.kind(feeds))")
        }
        try change(&editor)
        let data = editor.data
        let catalog: FeedCatalog
        do { catalog = try FeedCatalog.parse(data, file: path, presets: presets) } catch { throw Problem("not saved: \(error.description)") }
        do { try FeedNames.check(catalog, file: path) } catch { throw Problem("not saved: \(error.description)") }
        try Self.writeAtomically(data, to: path)
    }

    /// Whether the file at `path` was made read-only (`chmod a-w`: its mode lets nobody write it) or
    /// this user may not write it. Its folder may still be writable, and replacing the file there (a
    /// rename) would overrule what its owner asked; false when there is no file yet.
    static func isReadOnly(_ path: String) -> Bool {
        var info = stat()
        guard stat(path, &info) == 0 else { return false }
        return info.st_mode & 0o222 == 0 || access(path, W_OK) != 0
    }

    /// How long an edit waits for another program's edit of the same file to finish.
    static let lockWait: Duration = .seconds(10)

    /// The folder holding the file `path` leads to (made 0700 when missing), opened and locked
    /// (`flock`, exclusive) for one edit: a descriptor to close when the file is written. The lock is
    /// the folder's, not the file's, since the file is replaced (renamed over) by each edit; riffle's
    /// edits take it, another editor does not.
    /// - Throws: `Problem` when the folder cannot be made or opened, or another edit holds the lock
    ///   for `lockWait`.
    static func lockFolder(of path: String) throws(Problem) -> Int32 {
        let folder = URL(fileURLWithPath: path).resolvingSymlinksInPath().deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Problem("\(path): could not make its folder: \(error.localizedDescription)")
        }
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Problem("\(path): could not open its folder: \(String(cString: strerror(errno)))") }
        let deadline = ContinuousClock.now + lockWait
        while flock(fd, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, ContinuousClock.now < deadline else {
                close(fd)
                throw Problem("\(path): another riffle is changing it; nothing was written, try again")
            }
            usleep(2_000)
        }
        return fd
    }

    /// Writes `data` at `path` through a temporary file in the same folder, synced and renamed over
    /// the old one; the mode of the file it replaces, else 0600 (its folder made 0700).
    static func writeAtomically(_ data: Data, to path: String) throws(Problem) {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let folder = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw Problem("\(path): could not make its folder: \(error.localizedDescription)")
        }
        var mode: mode_t = 0o600
        var info = stat()
        if stat(target.path, &info) == 0 { mode = info.st_mode & 0o7777 }
        var template = Array(folder.appending(path: ".\(target.lastPathComponent).XXXXXX").path.utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw Problem("\(path): could not write beside it: \(String(cString: strerror(errno)))") }
        let temporary = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        func fail(_ what: String) -> Problem {
            let reason = String(cString: strerror(errno))
            close(fd)
            unlink(temporary)
            return Problem("\(path): \(what): \(reason); the file is as it was")
        }
        guard fchmod(fd, mode) == 0 else { throw fail("could not set its mode") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += n
            }
            return true
        }
        guard written else { throw fail("could not write") }
        guard fsync(fd) == 0 else { throw fail("could not sync") }
        guard rename(temporary, target.path) == 0 else { throw fail("could not replace it") }
        close(fd)
    }
}
