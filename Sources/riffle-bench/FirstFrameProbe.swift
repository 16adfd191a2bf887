import Foundation

/// One measurement of the first frame: a 120x40 tmux pane waits for Enter, then its shell writes
/// the wall-clock time and execs riffle. tmux copies everything the pane receives into a file
/// (`pipe-pane`), which is watched for the first title. The time `date` takes to exit before the
/// exec is counted too, so the figure errs on the slow side.
struct FirstFrameProbe {
    let riffle: String
    let template: String
    let cache: URL
    let needle: String

    /// Milliseconds from start to riffle's first output in the pane and to the title's bytes
    /// reaching it, or nil when the title never did.
    func measure() throws -> (firstOutput: Double, titles: Double)? {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("riffle-frame-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let started = folder.appendingPathComponent("t0").path, output = folder.appendingPathComponent("pane").path
        let socket = "riffle-bench-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        func tmux(_ arguments: String...) throws { try ChildProcess.run(["tmux", "-u", "-L", socket] + arguments) }
        let command = "read x; date +%s%N > \(quote(started)); exec \(quote(riffle)) \(quote(template)) --cache-dir \(quote(cache.path))"
        try tmux("new-session", "-d", "-s", "frame", "-x", "120", "-y", "40", command)
        defer { try? tmux("kill-server") }
        try tmux("pipe-pane", "-t", "frame", "-o", "cat >> \(quote(output))")
        try tmux("send-keys", "-t", "frame", "Enter")

        let needleBytes = Array(needle.utf8)
        let deadline = Date().addingTimeInterval(5)
        var seenAt: Date?, firstOutputAt: Date?
        while Date() < deadline {
            // The Enter typed into `read` echoes a line break first; riffle's output follows it.
            if let data = FileManager.default.contents(atPath: output), data.count > 2 {
                if firstOutputAt == nil { firstOutputAt = Date() }
                if Self.contains(data, needleBytes) {
                    seenAt = Date()
                    break
                }
            }
            usleep(100)
        }
        try? tmux("send-keys", "-t", "frame", "q")
        guard let seenAt, let firstOutputAt, let text = try? String(contentsOfFile: started, encoding: .utf8),
              let nanoseconds = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else { return nil }
        let start = nanoseconds / 1e9
        return ((firstOutputAt.timeIntervalSince1970 - start) * 1000, (seenAt.timeIntervalSince1970 - start) * 1000)
    }

    private func quote(_ text: String) -> String { "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'" }

    private static func contains(_ data: Data, _ needle: [UInt8]) -> Bool {
        data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard bytes.count >= needle.count else { return false }
            for start in 0...(bytes.count - needle.count) where bytes[start] == needle[0] {
                if needle.indices.allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
            }
            return false
        }
    }
}
