import Foundation
import RiffleHTTP
import RiffleStorage

/// A file inside the cache folder, in one of the two shapes the cache keeps:
/// `responses/<key>-<nonce>.body` (a body the cache named) or `<folder>/<owner>/<name>` (a body its
/// owner named, `BodyLocation.named`: three plain names, e.g. a feed's page file).
///
/// Every path read back from the index goes through `init?(_:)`: anything else (absolute, `..`,
/// hidden or odd names, another depth) is not the cache's, so it is never opened and never deleted.
struct CachePath: Hashable, Sendable, CustomStringConvertible {
    /// The folders from the cache root: `["responses"]` or `[folder, owner]`.
    let folders: [String]
    /// The file's name inside them.
    let name: String

    /// The path relative to the cache root, as the index keeps it.
    var description: String { (folders + [name]).joined(separator: "/") }

    init?(_ relative: String) {
        // By bytes, not Characters (a fifth of reading a cached page's row went to splitting it): every
        // name the cache accepts is ASCII, so a path with any other byte is none of its paths.
        guard relative.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let parts = relative.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map { String(Substring($0)) }
        if parts.count == 2, parts[0] == "responses", Self.isBodyName(parts[1]) {
            folders = [parts[0]]
        } else if parts.count == 3, parts[0] != "responses", Self.isFolderName(parts[0]), Self.isFolderName(parts[1]),
                  Self.isNamedFile(parts[2]) {
            folders = [parts[0], parts[1]]
        } else {
            return nil
        }
        name = parts[parts.count - 1]
    }

    /// A fresh file name for a response body under `responses/`.
    static func body(key: CacheKey) -> CachePath? {
        CachePath("responses/\(key.id)-\(String(UInt32.random(in: 0...UInt32.max), radix: 16).leftPadded(to: 8)).body")
    }

    /// Whether its owner named it (the body is then exactly the bytes its owner reads back).
    var isNamed: Bool { folders.count == 2 }

    /// A folder name the cache accepts from an owner: letters, digits, `-` and `_` only, at most 64.
    static func isFolderName(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= 64 && text.utf8.allSatisfy { Self.isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }
    }

    /// A file name the cache accepts from an owner: a stem and an extension of letters, digits, `-`
    /// and `_` (`feed_12.json`), at most 128 bytes: never hidden, never a temporary file's name.
    static func isNamedFile(_ name: String) -> Bool {
        let utf8 = name.utf8
        guard utf8.count <= 128 else { return false }
        // One pass over the bytes: parts between dots, each non-empty, at least two.
        var dots = 0, partLength = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ".") {
                guard partLength > 0 else { return false }
                dots += 1
                partLength = 0
            } else {
                guard Self.isLetterOrDigit(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") else { return false }
                partLength += 1
            }
        }
        return dots >= 1 && partLength > 0
    }

    /// `<64 hex>-<8 hex>.body`.
    static func isBodyName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count == 64 + 1 + 8 + 5, name.hasSuffix(".body"), bytes[64] == UInt8(ascii: "-") else { return false }
        return (bytes[0..<64] + bytes[65..<73]).allSatisfy(Self.isLowerHex)
    }

    /// The writer's process id when `entry` is a temporary file of the cache's
    /// (`CacheFolder.temporaryName(for:)` of a named file or a body name), else nil.
    static func temporaryWriter(_ entry: String) -> pid_t? {
        guard let (pid, final) = CacheFolder.temporaryWriter(entry) else { return nil }
        return isNamedFile(final) || isBodyName(final) ? pid : nil
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte)
    }

    private static func isLowerHex(_ byte: UInt8) -> Bool { (48...57).contains(byte) || (97...102).contains(byte) }
}

private extension String {
    func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(0, width - count)) + self }
}

extension CacheFolder {
    /// The bytes of the file at `path` (see `read(_:_:size:fileID:)`).
    func read(_ path: CachePath, size: Int, fileID: UInt64?) -> Read {
        read(path.folders, path.name, size: size, fileID: fileID)
    }

    /// Writes `data` beside `path` under a temporary name, to be committed in place, with `record`
    /// kept on the file (see `EntryRecord`).
    func prepare(_ data: Data, for path: CachePath, record: EntryRecord? = nil) throws(RiffleError) -> PendingFile {
        do { return try prepare(data, folders: path.folders, name: path.name, record: record?.bytes) } catch { throw RiffleError(error) }
    }

    /// Deletes the file at `path` when it is a regular file.
    func remove(_ path: CachePath) {
        remove(path.folders, path.name)
    }

    /// `folders` under the root (see `open(_:create:)`), failing as the cache does.
    func opened(_ folders: [String], create: Bool) throws(RiffleError) -> Folder {
        do { return try open(folders, create: create) } catch { throw RiffleError(error) }
    }
}

extension RiffleError {
    /// A storage failure as the cache reports it.
    init(_ error: StorageError) {
        self = .storage(path: error.path, reason: error.reason)
    }

    /// The reason of a `storage` error (its description otherwise).
    var reasonText: String {
        if case .storage(_, let reason) = self { return reason }
        return description
    }
}
