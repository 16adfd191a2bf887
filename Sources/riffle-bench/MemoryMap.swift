import Foundation

/// Where a process's resident memory is, read from `/proc/PID/smaps`: each mapping's resident and
/// anonymous kilobytes, summed per mapped object (a library, the executable, the heap, anonymous
/// memory), so a peak can be told apart into what each shared library, the binary's own pages and
/// the allocator cost.
struct MemoryMap: Equatable {
    /// One mapping (one line of `/proc/PID/maps` with its smaps figures).
    struct Region: Equatable {
        /// The file's last path component, a kernel name (`[heap]`, `[stack]`, `[vdso]`) or
        /// `[anonymous]` for a mapping of no file.
        var object: String
        /// `r-xp`, `rw-p`...
        var permissions: String
        /// Resident kilobytes.
        var resident: Int
        /// Resident kilobytes that belong to no file: written copies of a file's pages, the heap.
        var anonymous: Int
    }

    /// An object's figures, summed over its mappings.
    struct Object: Equatable {
        var name: String
        var resident: Int
        var anonymous: Int
        /// Resident kilobytes per permissions (`r-xp`: code, `r--p`: read-only data, `rw-p`: data).
        var byPermissions: [String: Int]
    }

    var regions: [Region]

    /// Reads `smaps` text; lines that are neither a mapping's header nor a figure it uses are skipped.
    init(smaps: String) {
        regions = []
        for line in smaps.split(separator: "\n", omittingEmptySubsequences: true) {
            if let region = Self.header(line) {
                regions.append(region)
            } else if !regions.isEmpty, let (field, kilobytes) = Self.figure(line) {
                switch field {
                case "Rss": regions[regions.count - 1].resident = kilobytes
                case "Anonymous": regions[regions.count - 1].anonymous = kilobytes
                default: break
                }
            }
        }
    }

    /// The process's own mappings, or nil when they cannot be read (it has exited).
    init?(pid: pid_t) {
        guard let text = Self.read("/proc/\(pid)/smaps"), !text.isEmpty else { return nil }
        self.init(smaps: text)
    }

    /// A file of /proc, read to its end: the kernel says such files are empty, so a read sized by
    /// `stat` (Foundation's `String(contentsOfFile:)`) gets nothing.
    static func read(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Resident kilobytes in all.
    var resident: Int { regions.reduce(0) { $0 + $1.resident } }
    /// Anonymous resident kilobytes in all (the heap, stacks, written pages of files).
    var anonymous: Int { regions.reduce(0) { $0 + $1.anonymous } }

    /// Per object, the largest first.
    func objects() -> [Object] {
        var byName: [String: Object] = [:]
        for region in regions {
            var object = byName[region.object] ?? Object(name: region.object, resident: 0, anonymous: 0, byPermissions: [:])
            object.resident += region.resident
            object.anonymous += region.anonymous
            object.byPermissions[region.permissions, default: 0] += region.resident
            byName[region.object] = object
        }
        return byName.values.sorted { ($0.resident, $1.name) > ($1.resident, $0.name) }
    }

    /// `7f1c2a000000-7f1c2a021000 r-xp 00000000 fd:01 1234   /usr/lib/x86_64-linux-gnu/libz.so.1.2.13`
    private static func header(_ line: Substring) -> Region? {
        let fields = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true)
        let range = fields.first?.split(separator: "-") ?? []
        guard fields.count >= 5, range.count == 2, range.allSatisfy({ $0.allSatisfy(\.isHexDigit) }), fields[1].count == 4 else { return nil }
        let path = fields.count > 5 ? fields[5].trimmingCharacters(in: .whitespaces) : ""
        let object: String
        if path.isEmpty {
            object = "[anonymous]"
        } else if path.hasPrefix("/") {
            // A file deleted while mapped keeps its name with " (deleted)" after it.
            object = String(path.split(separator: "/").last ?? "")
        } else {
            object = path
        }
        return Region(object: object, permissions: String(fields[1]), resident: 0, anonymous: 0)
    }

    /// `Rss:                 192 kB`
    private static func figure(_ line: Substring) -> (String, Int)? {
        guard let colon = line.firstIndex(of: ":") else { return nil }
        let value = line[line.index(after: colon)...].split(whereSeparator: { $0 == " " || $0 == "\t" })
        guard value.count == 2, value[1] == "kB", let kilobytes = Int(value[0]) else { return nil }
        return (String(line[..<colon]), kilobytes)
    }
}
