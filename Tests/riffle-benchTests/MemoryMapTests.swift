import Foundation
import Testing
@testable import riffle_bench

/// riffle-bench's reading of `/proc/PID/smaps`: what each mapped object costs at a peak.
@Suite("riffle-bench: resident memory per mapped object")
struct MemoryMapTests {
    /// Mappings as the kernel writes them (figures cut to those read, plus two it ignores).
    static let smaps = """
        00400000-014e8000 r-xp 00000000 fd:01 2061   /usr/local/bin/riffle
        Size:              17300 kB
        Rss:               10344 kB
        Pss:               10344 kB
        Anonymous:             0 kB
        VmFlags: rd ex mr mw me dw
        0187b000-03d70000 rw-p 0147a000 fd:01 2061   /usr/local/bin/riffle
        Rss:                2496 kB
        Anonymous:          1412 kB
        7f0904000000-7f0904a06000 rw-p 00000000 00:00 0 
        Rss:               10264 kB
        Anonymous:         10264 kB
        7f1c2a000000-7f1c2a021000 r-xp 00028000 fd:01 5150   /usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0
        Rss:                 456 kB
        Anonymous:             0 kB
        7f1c2a100000-7f1c2a133000 r--p 00000000 fd:01 5150   /usr/lib/x86_64-linux-gnu/libcurl.so.4.8.0
        Rss:                 204 kB
        Anonymous:             0 kB
        THPeligible:    0
        7f1c2a200000-7f1c2a205000 rw-p 00000000 00:00 0      [heap]
        Rss:                  20 kB
        Anonymous:            20 kB
        7ffd1c000000-7ffd1c021000 rw-p 00000000 00:00 0      [stack]
        Rss:                  24 kB
        Anonymous:            24 kB
        7f1c2a300000-7f1c2a301000 r--p 00000000 fd:01 9999   /tmp/a file with spaces.json (deleted)
        Rss:                   4 kB
        Anonymous:             0 kB
        """

    @Test func eachObjectSumsItsOwnMappingsLargestFirst() {
        let map = MemoryMap(smaps: Self.smaps)
        #expect(map.regions.count == 8)
        #expect(map.resident == 10_344 + 2_496 + 10_264 + 456 + 204 + 20 + 24 + 4)
        #expect(map.anonymous == 1_412 + 10_264 + 20 + 24)
        let objects = map.objects()
        #expect(objects.map(\.name) == ["riffle", "[anonymous]", "libcurl.so.4.8.0", "[stack]", "[heap]", "a file with spaces.json (deleted)"])
        #expect(objects[0] == MemoryMap.Object(name: "riffle", resident: 12_840, anonymous: 1_412, byPermissions: ["r-xp": 10_344, "rw-p": 2_496]))
        #expect(objects[1] == MemoryMap.Object(name: "[anonymous]", resident: 10_264, anonymous: 10_264, byPermissions: ["rw-p": 10_264]))
        #expect(objects[2] == MemoryMap.Object(name: "libcurl.so.4.8.0", resident: 660, anonymous: 0, byPermissions: ["r-xp": 456, "r--p": 204]))
    }

    /// An idle process's mappings (`sleep`, whose memory does not move while it is read; this test
    /// process's own grows and shrinks with the tests running beside it): its executable's code is
    /// there, and the totals are the kernel's (`smaps_rollup`, read just after).
    @Test func anIdleProcesssMappingsAddUpToTheKernelsTotals() throws {
        var pid: pid_t = 0
        let argv = ["/bin/sleep", "30"]
        let cArgs = argv.map { strdup($0) } + [nil]
        defer { cArgs.forEach { free($0) } }
        try #require(posix_spawn(&pid, argv[0], nil, nil, cArgs, environ) == 0)
        defer {
            kill(pid, SIGKILL)
            waitpid(pid, nil, 0)
        }
        // Until the child runs sleep (its exe link names it), at most 10 s.
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe"))?.hasSuffix("sleep") != true,
              ContinuousClock.now < deadline { usleep(10_000) }
        usleep(50_000)
        let map = try #require(MemoryMap(pid: pid))
        let rollup = try #require(MemoryMap.read("/proc/\(pid)/smaps_rollup"))
        let kernelResident = MemorySection.kilobytes("Rss", in: rollup)
        #expect(kernelResident > 0)
        #expect(abs(map.resident - kernelResident) <= 64, "\(map.resident) against \(kernelResident)")
        let own = try #require(map.objects().first { $0.name == "sleep" }, "\(map.objects().map(\.name))")
        #expect((own.byPermissions["r-xp"] ?? 0) > 0)
        #expect(map.objects().contains { $0.name == "[stack]" && $0.anonymous > 0 })
    }
}
