import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Replaces a file in one step: the bytes go to a fresh temporary file in the same folder (mode
/// 0600, `O_EXCL`), which is then renamed over the target. A reader, another process, or what a
/// crash leaves behind sees the old file or the new one, never a mix.
///
/// Unlike `Data.write(to:options: .atomic)` there is no `fsync` before the rename: a cache can lose
/// its newest page to a power cut, and the index notices (its row records the size, and a file of
/// another size is a miss). The two syncs a page cost (body and metadata) took longer than parsing it.
/// The temporary file is `0600`, which the rename keeps (Foundation's came out `0644`).
enum AtomicFile {
    static func write(_ data: Data, to url: URL) throws(RiffleError) {
        let path = url.path
        let temporary = url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(getpid()).\(UInt64.random(in: 0...UInt64.max)).tmp").path
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw failure(path) }
        let written = data.withUnsafeBytes { raw -> Bool in
            var offset = 0
            while offset < raw.count {
                let count = Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
                if count < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                offset += count
            }
            return true
        }
        let error = errno
        if close(fd) != 0 || !written {
            let reason = written ? errno : error
            unlink(temporary)
            throw failure(path, errno: reason)
        }
        guard rename(temporary, path) == 0 else {
            let reason = errno
            unlink(temporary)
            throw failure(path, errno: reason)
        }
    }

    private static func failure(_ path: String, errno code: Int32 = errno) -> RiffleError {
        .storage(path: path, reason: String(cString: strerror(code)))
    }
}
