import CSQLite3
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One of Riffle's SQLite files (the cache's `responses/index.sqlite`, the reading log's
/// `reading.sqlite`) and the one way each is created, opened and replaced:
///
/// - The file is created before SQLite opens it: mode 0600, `O_EXCL`, never through a symbolic
///   link. SQLite gives the `-wal` and `-shm` files it makes the database file's mode, so they too
///   are private from their first byte, whatever the folder's mode or the umask.
/// - A file that an older Riffle left readable by others loses those bits, with its `-wal`/`-shm`
///   (only bits are taken away: a file its owner made read-only stays read-only).
/// - A file that is not a database is replaced by an empty one. Only the file and its `-wal`/`-shm`
///   are deleted, each only when it is a regular file: when a folder or a link is planted at one of
///   those names, nothing is deleted and the file stays unusable, saying why.
package struct SQLiteFile {
    /// The folder holding the file, opened without following links.
    package let folder: CacheFolder.Folder
    /// The database file's name in `folder`.
    package let name: String

    /// The file's full path, for SQLite and for messages.
    package var path: String { folder.path + "/" + name }

    /// The database file and the two SQLite keeps beside it in WAL mode.
    package var names: [String] { [name, name + "-wal", name + "-shm"] }

    package init(_ name: String, in folder: CacheFolder.Folder) {
        self.folder = folder
        self.name = name
    }

    /// Makes the file (empty, 0600) when missing and `create` is set; an existing one must be a
    /// regular file, and loses any group and other permission bits, with its `-wal`/`-shm`.
    package func prepare(create: Bool) throws(StorageError) {
        var info = stat()
        guard fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            let code = errno
            guard code == ENOENT, create else { throw CacheFolder.failure(path, code) }
            let fd = openat(folder.fd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
            guard fd >= 0 || errno == EEXIST else { throw CacheFolder.failure(path, errno) }
            if fd >= 0 { close(fd) }
            return
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw StorageError(path: path, reason: "not a regular file") }
        guard info.st_uid == geteuid() else { return }
        for name in names {
            let fd = openat(folder.fd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
            guard fd >= 0 else { continue }
            var file = stat()
            if fstat(fd, &file) == 0, file.st_mode & S_IFMT == S_IFREG, file.st_mode & 0o077 != 0 { fchmod(fd, file.st_mode & 0o700) }
            close(fd)
        }
    }

    /// The names among the file and its `-wal`/`-shm` where something other than a regular file is
    /// (a folder, a link): not Riffle's to delete.
    package func foreignNames() -> [String] {
        names.filter { name in
            var info = stat()
            return fstatat(folder.fd, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT != S_IFREG
        }
    }

    /// Deletes the file and its `-wal`/`-shm`, each only when it is a regular file.
    package func remove() {
        for name in names { CacheFolder.unlinkRegularFile(name, in: folder) }
    }

    /// Opens the file in the first of `accesses` that works, creating it (`prepare`) when `create`
    /// is set. Each connection is checked with `quick_check` when `check` is set, then handed to
    /// `setUp` (tables, upgrades), which may throw to try the next access. A read-write connection
    /// to a file that cannot be written counts as not working.
    ///
    /// A damaged file (`SQLiteError.corrupt`) met with read-write access and `replaceDamaged` set
    /// is removed (`remove()`), `damaged` is told why, and a new empty file is made and opened.
    package func open(accesses: [SQLiteDatabase.Access], create: Bool, check: Bool, replaceDamaged: Bool,
                      damaged: (SQLiteError) -> Void = { _ in },
                      setUp: (SQLiteDatabase) throws(SQLiteError) -> Void) throws(StorageError) -> SQLiteDatabase {
        try prepare(create: create)
        var lastError: SQLiteError?
        // A full disk (or a file size limit) met while writing: why the weaker ways after it failed too
        // (a new file they find half made), so it is what the message says.
        var writeFailure: SQLiteError?
        for access in accesses {
            do throws(SQLiteError) {
                let database = try SQLiteDatabase(path: path, access: access)
                if access == .readWrite && database.isReadOnly { continue }
                if check {
                    let result = try database.execute("PRAGMA quick_check").first?.first?.text ?? "ok"
                    guard result == "ok" else { throw SQLiteError.corruption(result) }
                }
                try setUp(database)
                return database
            } catch where error.corrupt && access == .readWrite && replaceDamaged {
                return try replace(error, damaged: damaged, setUp: setUp)
            } catch {
                // Read-only, busy or otherwise unusable this way: the next way may work.
                if access == .readWrite && error.isFull { writeFailure = error }
                lastError = error
            }
        }
        lastError = writeFailure ?? lastError
        let foreign = foreignNames()
        guard foreign.isEmpty else {
            throw StorageError(path: path, reason: "\(lastError?.plainReason ?? "cannot be opened"): \(foreign.joined(separator: ", ")) is not a "
                               + "file Riffle made: left alone; move it away to start a new one")
        }
        throw StorageError(path: path, reason: lastError?.plainReason ?? "cannot be opened", isBusy: lastError?.isBusy ?? false)
    }

    /// Replaces a damaged file by a new empty one, opened read-write and set up.
    package func replace(_ error: SQLiteError, damaged: (SQLiteError) -> Void,
                         setUp: (SQLiteDatabase) throws(SQLiteError) -> Void) throws(StorageError) -> SQLiteDatabase {
        let foreign = foreignNames()
        guard foreign.isEmpty else {
            // Replacing would mean deleting what someone else put there: nothing is touched.
            throw StorageError(path: path, reason: "unusable (\(error.message)), and \(foreign.joined(separator: ", ")) is not a file "
                               + "Riffle made: left alone; move it away to start a new one")
        }
        damaged(error)
        remove()
        try prepare(create: true)
        do throws(SQLiteError) {
            let database = try SQLiteDatabase(path: path, access: .readWrite)
            try setUp(database)
            return database
        } catch {
            throw StorageError(path: path, reason: error.plainReason)
        }
    }
}
