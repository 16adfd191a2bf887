import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A folder made unwritable for a test (a read-only mount, a backup, another user's folder), and
/// how to see that nothing in it changed.
package enum FolderModes {
    /// Where such a folder goes: the temporary directory when every folder above it lets other users
    /// through (a test running as root runs riffle as another user), else /tmp, which POSIX provides
    /// for every user. A private `TMPDIR` (`mktemp -d`, mode 0700) would hide the folder.
    package static func reachableByOthers() -> URL {
        let temporary = FileManager.default.temporaryDirectory.standardizedFileURL
        var folder = temporary
        while folder.path != "/" {
            var info = stat()
            guard stat(folder.path, &info) == 0, info.st_mode & 0o001 != 0 else { return URL(fileURLWithPath: "/tmp") }
            folder.deleteLastPathComponent()
        }
        return temporary
    }

    /// A new folder's URL under `reachableByOthers()`, named `prefix` and a UUID (not made yet:
    /// what the test runs makes it). `remove` takes it away, whatever modes it was left with.
    package static func scratch(_ prefix: String) -> URL {
        reachableByOthers().appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    }

    /// Makes `url` and what it holds writable again, then removes it.
    package static func remove(_ url: URL) {
        setMode(url, folders: 0o700, files: 0o600)
        try? FileManager.default.removeItem(at: url)
    }

    /// Every file and folder under `url` with its size.
    package static func listing(_ url: URL) -> [String] {
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey])
        return (walker?.compactMap { ($0 as? URL).map { "\($0.path) \((try? $0.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? -1)" } } ?? []).sorted()
    }

    /// Sets the mode of `url` and of every folder and file under it.
    package static func setMode(_ url: URL, folders: mode_t, files: mode_t) {
        chmod(url.path, folders)
        let walker = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.isDirectoryKey])
        while let item = walker?.nextObject() as? URL {
            let isFolder = (try? item.resourceValues(forKeys: [.isDirectoryKey]).isDirectory) ?? false
            chmod(item.path, isFolder ? folders : files)
        }
    }
}
