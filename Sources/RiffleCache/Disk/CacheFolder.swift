import Foundation
import RiffleHTTP
#if canImport(Glibc)
import Glibc
#endif

/// The cache's files, reached the way a cache that trusts nothing it finds must.
///
/// - Each folder below the root is opened with `O_NOFOLLOW`, and each file too: a symbolic link is
///   never followed, wherever it points. (The root itself may be a link: the user chose it.)
/// - A file is read only when `fstat` says it is a regular file of the size (and inode) the index
///   recorded; the bytes are read from that same descriptor.
/// - Only regular files with one of the cache's own names (`CachePath`, its temporary files) are
///   ever deleted, one `unlinkat` each; nothing is removed recursively, and a folder only when empty.
/// - New files are written under a temporary name (mode 0600, `O_EXCL`) and renamed over the old
///   one, so a reader, another process or what a crash leaves behind sees the old file or the new
///   one. There is no `fsync`: the index notices a file that a power cut left otherwise (its row
///   records the size and inode), and two syncs a page cost more than parsing it.
/// - Folders are created with mode 0700.
///
/// Failures are `RiffleError.storage` naming the path, the reason in plain words.
package struct CacheFolder: Sendable {
    /// The cache root (`~/.cache/riffle`).
    let root: URL

    /// Largest body read back: what the transport would accept, with room to spare. A bigger file
    /// is not one the cache wrote.
    static let readLimit = 1 << 30

    /// An open folder, closed when the last reference goes.
    final class Folder {
        let fd: Int32
        let path: String
        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }
        deinit { close(fd) }
    }

    /// What reading a file found.
    enum Read {
        case data(Data, fileID: UInt64)
        /// Nothing there.
        case missing
        /// Something that is not the file the index describes: why, in words.
        case damaged(String)
    }

    /// `folders` under the root, each opened without following links; created (0700) when missing
    /// and `create` is set. With `create` the root is made too.
    func open(_ folders: [String], create: Bool) throws(RiffleError) -> Folder {
        if create { try Self.makeFolder(root) }
        switch openFolder(folders, create: create) {
        case .success(let folder): return folder
        case .failure(let failure): throw Self.failure(failure.path, failure.code)
        }
    }

    private struct OpenFailure: Error {
        var path: String
        var code: Int32
    }

    private func openFolder(_ folders: [String], create: Bool) -> Result<Folder, OpenFailure> {
        var path = root.path
        var current = Glibc.open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard current >= 0 else { return .failure(OpenFailure(path: path, code: errno)) }
        for name in folders {
            path += "/" + name
            if create, mkdirat(current, name, 0o700) != 0, errno != EEXIST {
                let code = errno
                close(current)
                return .failure(OpenFailure(path: path, code: code))
            }
            let next = openat(current, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let code = errno
            close(current)
            guard next >= 0 else { return .failure(OpenFailure(path: path, code: code)) }
            current = next
        }
        return .success(Folder(fd: current, path: path))
    }

    /// The bytes of `path` when it is a regular file of `size` bytes (and inode `fileID`, when the
    /// index knows it).
    func read(_ path: CachePath, size: Int, fileID: UInt64?) -> Read {
        let folder: Folder
        switch openFolder(path.folders, create: false) {
        case .success(let opened): folder = opened
        case .failure(let failure): return failure.code == ENOENT ? .missing : .damaged("\(failure.path): \(Self.reason(failure.code))")
        }
        let fd = openat(folder.fd, path.name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT ? .missing : .damaged(Self.reason(code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .damaged(Self.reason(errno)) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .damaged("not a regular file") }
        let fileID = fileID ?? UInt64(info.st_ino)
        guard UInt64(info.st_ino) == fileID else { return .damaged("replaced by another file") }
        guard Int(info.st_size) == size else { return .damaged("\(info.st_size) bytes where the index says \(size)") }
        guard size <= Self.readLimit else { return .damaged("over \(RiffleError.size(Self.readLimit))") }
        var data = Data(count: size)
        let complete = data.withUnsafeMutableBytes { raw -> Bool in
            var offset = 0
            while offset < size {
                let count = Glibc.read(fd, raw.baseAddress! + offset, size - offset)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return false }
                offset += count
            }
            return true
        }
        return complete ? .data(data, fileID: fileID) : .damaged("shorter than the index says")
    }

    /// Writes `data` under a temporary name beside `path` (creating its folders); `PendingFile.commit`
    /// renames it into place.
    func prepare(_ data: Data, for path: CachePath) throws(RiffleError) -> PendingFile {
        let folder = try open(path.folders, create: true)
        let temporary = CachePath.temporaryName(for: path.name)
        let fd = openat(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(folder.path + "/" + path.name, errno) }
        var code: Int32 = 0
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    code = errno
                    return
                }
                offset += count
            }
        }
        var info = stat()
        if code == 0, fstat(fd, &info) != 0 { code = errno }
        if close(fd) != 0, code == 0 { code = errno }
        guard code == 0 else {
            unlinkat(folder.fd, temporary, 0)
            throw Self.failure(folder.path + "/" + path.name, code)
        }
        return PendingFile(folder: folder, temporary: temporary, path: path, fileID: UInt64(info.st_ino))
    }

    /// Deletes `path` when it is a regular file; anything else found there (a folder, a link) stays.
    func remove(_ path: CachePath) {
        guard let folder = try? open(path.folders, create: false) else { return }
        Self.unlinkRegularFile(path.name, in: folder)
    }

    /// Deletes `name` in `folder` when it is a regular file.
    @discardableResult
    static func unlinkRegularFile(_ name: String, in folder: Folder) -> Bool {
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return unlinkat(folder.fd, name, 0) == 0
    }

    /// The names in `folder` with their type and size, without following links.
    static func entries(of folder: Folder) -> [(name: String, isFile: Bool, isFolder: Bool, size: Int, modified: Date)] {
        let copy = dup(folder.fd)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(directory) }
        var result: [(name: String, isFile: Bool, isFolder: Bool, size: Int, modified: Date)] = []
        while let entry = readdir(directory) {
            var raw = entry.pointee.d_name
            let capacity = MemoryLayout.size(ofValue: raw)
            let name = withUnsafePointer(to: &raw) { $0.withMemoryRebound(to: CChar.self, capacity: capacity) { String(cString: $0) } }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            let kind = info.st_mode & S_IFMT
            result.append((name, kind == S_IFREG, kind == S_IFDIR, Int(info.st_size),
                           Date(timeIntervalSince1970: TimeInterval(info.st_mtim.tv_sec))))
        }
        return result
    }

    /// Creates `url` and its missing parents, mode 0700.
    package static func makeFolder(_ url: URL) throws(RiffleError) {
        var missing: [String] = []
        var path = url.path
        var info = stat()
        while stat(path, &info) != 0 {
            guard errno == ENOENT, path != "/" else { throw failure(path, errno) }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw .storage(path: path, reason: "not a folder") }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw failure(path, errno)
        }
    }

    static func failure(_ path: String, _ code: Int32) -> RiffleError {
        .storage(path: path, reason: reason(code))
    }

    /// `errno` in words, with the cases a tampered folder gives said plainly.
    static func reason(_ code: Int32) -> String {
        switch code {
        case ELOOP: "a symbolic link (never followed)"
        case ENOTDIR: "not a folder"
        case EISDIR: "a folder, not a file"
        default: String(cString: strerror(code))
        }
    }
}

/// A new file's bytes, written under a temporary name until `commit` renames it over the target.
/// Its folder stays open, so the rename happens where the bytes were written.
final class PendingFile {
    let folder: CacheFolder.Folder
    let temporary: String
    let path: CachePath
    /// The new file's inode: what the index records, so a reader can tell this file from another.
    let fileID: UInt64
    private var done = false

    init(folder: CacheFolder.Folder, temporary: String, path: CachePath, fileID: UInt64) {
        self.folder = folder
        self.temporary = temporary
        self.path = path
        self.fileID = fileID
    }

    /// Renames the file into place (over what was there).
    func commit() throws(RiffleError) {
        guard renameat(folder.fd, temporary, folder.fd, path.name) == 0 else {
            throw CacheFolder.failure(folder.path + "/" + path.name, errno)
        }
        done = true
    }

    /// Removes the temporary file, unless it was committed.
    func discard() {
        guard !done else { return }
        unlinkat(folder.fd, temporary, 0)
        done = true
    }

    deinit { discard() }
}

extension RiffleError {
    /// The reason of a `storage` error (its description otherwise).
    var reasonText: String {
        if case .storage(_, let reason) = self { return reason }
        return description
    }
}
