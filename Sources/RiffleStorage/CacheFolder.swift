import CXattr
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Riffle's files under its cache folder (the response cache's and the reading log's), reached the
/// way a program that trusts nothing it finds there must.
///
/// - Each folder below the root is opened with `O_NOFOLLOW`, and each file too: a symbolic link is
///   never followed, wherever it points. (The root itself may be a link: the user chose it.)
/// - A file is read only when `fstat` says it is a regular file of the size (and inode) the index
///   recorded, or of the size the record kept on the file says (`readRecorded`); the bytes are read
///   from that same descriptor.
/// - Only regular files are ever deleted, one `unlinkat` each, and only names their owner claims (the
///   cache's `CachePath`s and temporary files, an SQLite file and its `-wal`/`-shm`); nothing is
///   removed recursively, and a folder only when empty.
/// - New files are written under a temporary name (mode 0600, `O_EXCL`) and renamed over the old
///   one, so a reader, another process or what a crash leaves behind sees the old file or the new
///   one. There is no `fsync`: the index notices a file that a power cut left otherwise (its row
///   records the size and inode), and two syncs a page cost more than parsing it.
/// - Folders are created with mode 0700.
/// - The folders files are read from stay open (`KeptFolders`), so a read opens its file and nothing
///   else. A read in a kept folder that does not find what it wants (no such file, another file) is
///   done once more in the folder opened afresh from the root: a kept folder another process
///   removed or replaced never hides a file, nor makes one look damaged.
///
/// Failures are `StorageError`s naming the path, the reason in plain words.
package struct CacheFolder: Sendable {
    /// The cache root (`~/.cache/riffle`).
    package let root: URL

    /// The folders reads went through, kept open for the reads after them.
    private let kept = KeptFolders()

    package init(root: URL) {
        self.root = root
    }

    /// Largest body read back: what the transport would accept, with room to spare. A bigger file
    /// is not one the cache wrote.
    package static let readLimit = 1 << 30

    /// An open folder, closed when the last reference goes.
    package final class Folder: Sendable {
        package let fd: Int32
        package let path: String
        init(fd: Int32, path: String) {
            self.fd = fd
            self.path = path
        }
        deinit { close(fd) }
    }

    /// What reading a file found.
    package enum Read {
        case data(Data, fileID: UInt64)
        /// Nothing there.
        case missing
        /// Something that is not the file the index describes: why, in words.
        case damaged(String)
    }

    /// `folders` under the root, each opened without following links; created (0700) when missing
    /// and `create` is set. With `create` the root is made too.
    package func open(_ folders: [String], create: Bool) throws(StorageError) -> Folder {
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

    /// The bytes of `name` in `folders` when it is a regular file of `size` bytes (and inode
    /// `fileID`, when the index knows it).
    package func read(_ folders: [String], _ name: String, size: Int, fileID: UInt64?) -> Read {
        inReadFolder(folders) { folder in
            withRegularFile(in: folder, name, missing: Read.missing, damaged: Read.damaged) { fd, info -> Read in
                let fileID = fileID ?? UInt64(info.st_ino)
                guard UInt64(info.st_ino) == fileID else { return .damaged("replaced by another file") }
                guard Int(info.st_size) == size else { return .damaged("\(info.st_size) bytes where the index says \(size)") }
                guard size <= Self.readLimit else { return .damaged("over \(Self.readLimit >> 20) MB") }
                guard let data = Self.readAll(fd, size: size) else { return .damaged("shorter than the index says") }
                return .data(data, fileID: fileID)
            }
        } found: { read in
            if case .data = read { true } else { false }
        }
    }

    /// Whether anything is at `name` in `folders` (a link is not followed, and counts: reading it
    /// then says what it is), without opening it.
    package func holds(_ folders: [String], _ name: String) -> Bool {
        inReadFolder(folders) { folder in
            guard case .success(let folder) = folder else { return false }
            var info = stat()
            return fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0
        } found: { $0 }
    }

    /// `body` run in the kept folder for `folders` when there is one; when that does not find what
    /// `found` wants, run again in the folder opened afresh from the root (which is kept from then
    /// on). A folder that cannot be opened is kept by nobody: `body` gets why.
    private func inReadFolder<T>(_ folders: [String], _ body: (Result<Folder, OpenFailure>) -> T, found: (T) -> Bool) -> T {
        if let folder = kept.folder(folders) {
            let result = body(.success(folder))
            if found(result) { return result }
            kept.forget(folders)
        }
        let opened = openFolder(folders, create: false)
        if case .success(let folder) = opened { kept.keep(folder, for: folders) }
        return body(opened)
    }

    /// `body` with `name` in `opened` read-opened (a regular file, no link followed) and its status,
    /// the descriptor closed after; `missing`, or `damaged` with why, when it is not there or not that.
    private func withRegularFile<T>(in opened: Result<Folder, OpenFailure>, _ name: String, missing: T,
                                    damaged: (String) -> T, _ body: (Int32, stat) -> T) -> T {
        switch openRegularFile(in: opened, name) {
        case .opened(let fd, let info):
            defer { close(fd) }
            return body(fd, info)
        case .missing: return missing
        case .damaged(let why): return damaged(why)
        }
    }

    /// A file opened for reading by `openRegularFile`, or what was found instead.
    private enum OpenedFile {
        /// The descriptor (the caller closes it) and the file's status.
        case opened(Int32, stat)
        case missing
        case damaged(String)
    }

    /// `name` in `folder` (or why the folder could not be opened), opened for reading without
    /// following a link, when it is a regular file.
    private func openRegularFile(in opened: Result<Folder, OpenFailure>, _ name: String) -> OpenedFile {
        let folder: Folder
        switch opened {
        case .success(let open): folder = open
        case .failure(let failure): return failure.code == ENOENT ? .missing : .damaged("\(failure.path): \(Self.reason(failure.code))")
        }
        let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else {
            let code = errno
            return code == ENOENT ? .missing : .damaged(Self.reason(code))
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            return .damaged(Self.reason(code))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(fd)
            return .damaged("not a regular file")
        }
        return .opened(fd, info)
    }

    /// The extended attribute a file's record is kept in (`prepare(_:folders:name:record:)`).
    package static let recordAttribute = "user.riffle.entry"
    /// Largest record kept or read: a record that does not fit is not kept (the file then has none).
    package static let recordLimit = 4_096

    /// What reading a file with its record found (`readRecorded(_:_:)`).
    package enum RecordedRead {
        /// The bytes and the record kept on the same file (read from one descriptor).
        case data(Data, record: [UInt8], fileID: UInt64)
        /// A regular file without a record (written before records were kept, or on a file system
        /// without user extended attributes): only the index can say what it is.
        case unrecorded
        /// Nothing there.
        case missing
        /// Not a file the cache could have written: why, in words.
        case damaged(String)
    }

    /// The bytes of `name` in `folders` with the record kept on the file (`recordAttribute`), read
    /// from one descriptor: a regular file, reached without following links, whose size is the one
    /// `expectedSize` reads from the record. The body is read only when the record is there and
    /// agrees on the size.
    package func readRecorded(_ folders: [String], _ name: String, expectedSize: ([UInt8]) -> Int?) -> RecordedRead {
        inReadFolder(folders) { folder in
            withRegularFile(in: folder, name, missing: RecordedRead.missing, damaged: RecordedRead.damaged) { fd, info -> RecordedRead in
                var record = [UInt8](repeating: 0, count: Self.recordLimit)
                let length = record.withUnsafeMutableBytes { fgetxattr(fd, Self.recordAttribute, $0.baseAddress, $0.count) }
                guard length > 0 else { return .unrecorded }
                record.removeSubrange(length...)
                guard let size = expectedSize(record), Int(info.st_size) == size, size <= Self.readLimit else { return .unrecorded }
                guard let data = Self.readAll(fd, size: size) else { return .damaged("shorter than its record says") }
                return .data(data, record: record, fileID: UInt64(info.st_ino))
            }
        } found: { read in
            if case .data = read { true } else { false }
        }
    }

    /// Replaces the record kept on `name` in `folders` when it is still the regular file `fileID`
    /// (a revalidated body's new freshness); a file that is gone or another is left as it is.
    package func replaceRecord(_ record: [UInt8], _ folders: [String], _ name: String, fileID: UInt64) {
        guard case .success(let folder) = openFolder(folders, create: false) else { return }
        let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, UInt64(info.st_ino) == fileID else { return }
        Self.setRecord(record, on: fd)
    }

    /// Keeps `record` on the open file; one that cannot be kept (too long, a file system without
    /// user extended attributes) is removed, so a file never keeps an older record than its index row.
    private static func setRecord(_ record: [UInt8], on fd: Int32) {
        let kept = record.count <= recordLimit && record.withUnsafeBytes { fsetxattr(fd, recordAttribute, $0.baseAddress, $0.count, 0) } == 0
        if !kept { fremovexattr(fd, recordAttribute) }
    }

    /// `size` bytes from `fd`; nil when the file ends sooner.
    private static func readAll(_ fd: Int32, size: Int) -> Data? {
        guard size > 0 else { return Data() }
        // Read into memory handed to the `Data` as it is: `Data(count:)` zeroed every byte first,
        // a second pass over a page's bytes on every cache hit.
        guard let buffer = malloc(size) else { return nil }
        var offset = 0
        while offset < size {
            let count = Glibc.read(fd, buffer + offset, size - offset)
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                free(buffer)
                return nil
            }
            offset += count
        }
        return Data(bytesNoCopy: buffer, count: size, deallocator: .free)
    }

    /// Writes `data` under a temporary name (`temporaryName(for:)`) beside `name` in `folders`
    /// (creating them); `PendingFile.commit` renames it into place. `record` (what the index's row
    /// will say of the file) is kept on the file itself, as an extended attribute, when the file
    /// system takes one.
    package func prepare(_ data: Data, folders: [String], name: String, record: [UInt8]? = nil) throws(StorageError) -> PendingFile {
        let folder = try open(folders, create: true)
        let temporary = Self.temporaryName(for: name)
        let fd = openat(folder.fd, temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw Self.failure(folder.path + "/" + name, errno) }
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
        // The record goes on the file before it has its name, so it moves with it: never on another file.
        if code == 0, let record { Self.setRecord(record, on: fd) }
        if close(fd) != 0, code == 0 { code = errno }
        guard code == 0 else {
            unlinkat(folder.fd, temporary, 0)
            throw Self.failure(folder.path + "/" + name, code)
        }
        return PendingFile(folder: folder, temporary: temporary, name: name, fileID: UInt64(info.st_ino))
    }

    /// Deletes `name` in `folders` when it is a regular file; anything else found there (a folder, a
    /// link) stays.
    package func remove(_ folders: [String], _ name: String) {
        guard let folder = try? open(folders, create: false) else { return }
        Self.unlinkRegularFile(name, in: folder)
    }

    /// The temporary name a new version of `name` is written under before it is renamed over it:
    /// `.<name>.<pid>.<random>.tmp`. The process id lets a later run tell a write in progress
    /// from one a crash left behind.
    package static func temporaryName(for name: String) -> String {
        ".\(name).\(getpid()).\(String(UInt64.random(in: 0...UInt64.max), radix: 16)).tmp"
    }

    /// The writer's process id and the final name when `entry` is a temporary file
    /// (`temporaryName(for:)`), else nil.
    package static func temporaryWriter(_ entry: String) -> (pid: pid_t, name: String)? {
        guard entry.hasPrefix("."), entry.hasSuffix(".tmp") else { return nil }
        let parts = entry.dropFirst().dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, let pid = pid_t(parts[parts.count - 2]), pid > 0,
              parts[parts.count - 1].utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) }) else { return nil }
        return (pid, parts.dropLast(2).joined(separator: "."))
    }

    /// Deletes `name` in `folder` when it is a regular file.
    @discardableResult
    package static func unlinkRegularFile(_ name: String, in folder: Folder) -> Bool {
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return unlinkat(folder.fd, name, 0) == 0
    }

    /// The names in `folder` with their type and size, without following links; at most `limit`.
    package static func entries(of folder: Folder, limit: Int = .max) -> [(name: String, isFile: Bool, isFolder: Bool, size: Int, modified: Date)] {
        let copy = dup(folder.fd)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(directory) }
        var result: [(name: String, isFile: Bool, isFolder: Bool, size: Int, modified: Date)] = []
        while result.count < limit, let entry = readdir(directory) {
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
    package static func makeFolder(_ url: URL) throws(StorageError) {
        var missing: [String] = []
        var path = url.path
        var info = stat()
        while stat(path, &info) != 0 {
            guard errno == ENOENT, path != "/" else { throw failure(path, errno) }
            missing.append(path)
            path = (path as NSString).deletingLastPathComponent
        }
        guard info.st_mode & S_IFMT == S_IFDIR else { throw StorageError(path: path, reason: "not a folder") }
        for path in missing.reversed() where mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw failure(path, errno)
        }
    }

    package static func failure(_ path: String, _ code: Int32) -> StorageError {
        StorageError(path: path, reason: reason(code))
    }

    /// `errno` in words, with the cases a tampered folder gives said plainly.
    package static func reason(_ code: Int32) -> String {
        switch code {
        case ELOOP: "a symbolic link (never followed)"
        case ENOTDIR: "not a folder"
        case EISDIR: "a folder, not a file"
        default: String(cString: strerror(code))
        }
    }
}

extension CacheFolder {
    /// The folders a `CacheFolder`'s reads opened, by their names under the root, kept open: a
    /// cached page is then one `openat` of its file where walking from the root took four opens and
    /// four closes (about 12 µs of a 0.2 ms cache hit here). At most `limit` are kept (a process
    /// reads from a few: `responses` and a folder per feed); past it the oldest are closed.
    final class KeptFolders: Sendable {
        static let limit = 16
        private let folders = Mutex<[(names: [String], folder: Folder)]>([])

        func folder(_ names: [String]) -> Folder? {
            folders.withLock { kept in kept.first { $0.names == names }?.folder }
        }

        func keep(_ folder: Folder, for names: [String]) {
            folders.withLock { kept in
                kept.removeAll { $0.names == names }
                if kept.count >= Self.limit { kept.removeFirst(kept.count - Self.limit + 1) }
                kept.append((names, folder))
            }
        }

        func forget(_ names: [String]) {
            folders.withLock { kept in kept.removeAll { $0.names == names } }
        }
    }
}

/// A new file's bytes, written under a temporary name until `commit` renames it over the target.
/// Its folder stays open, so the rename happens where the bytes were written.
package final class PendingFile {
    package let folder: CacheFolder.Folder
    let temporary: String
    /// The name it takes when committed.
    package let name: String
    /// The new file's inode: what an index records, so a reader can tell this file from another.
    package let fileID: UInt64
    private var done = false

    init(folder: CacheFolder.Folder, temporary: String, name: String, fileID: UInt64) {
        self.folder = folder
        self.temporary = temporary
        self.name = name
        self.fileID = fileID
    }

    /// Renames the file into place (over what was there).
    package func commit() throws(StorageError) {
        guard renameat(folder.fd, temporary, folder.fd, name) == 0 else {
            throw CacheFolder.failure(folder.path + "/" + name, errno)
        }
        done = true
    }

    /// Removes the temporary file, unless it was committed.
    package func discard() {
        guard !done else { return }
        unlinkat(folder.fd, temporary, 0)
        done = true
    }

    deinit { discard() }
}

/// Why a file or folder under the cache folder could not be used: its path, and the reason in words.
package struct StorageError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var reason: String
    /// Another program held a lock the open needed (SQLite's write lock): trying again later may work.
    package var isBusy: Bool

    package init(path: String, reason: String, isBusy: Bool = false) {
        self.path = path
        self.reason = reason
        self.isBusy = isBusy
    }

    package var description: String { "\(path): \(reason)" }
}
