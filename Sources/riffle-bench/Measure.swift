import Foundation

/// Timing figures of one measured operation, in microseconds.
struct Timing {
    var samples: [Double]  // sorted, microseconds
    var median: Double { samples[samples.count / 2] }
    var p99: Double { samples[min(samples.count - 1, samples.count * 99 / 100)] }
    var best: Double { samples[0] }

    /// Megabytes per second at the median for an input of `bytes`.
    func throughput(bytes: Int) -> Double { Double(bytes) / median }  // bytes/µs == MB/s
}

/// Runs `body` `warmup` times unmeasured, then `iterations` times, timing each run separately.
/// Best effort only: a shared 2-core machine is noisy, so read medians rather than means.
func measure(iterations: Int, warmup: Int = 100, _ body: () throws -> Void) rethrows -> Timing {
    let clock = ContinuousClock()
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = clock.now
        try body()
        let elapsed = clock.now - start
        samples.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return Timing(samples: samples.sorted())
}

/// Keeps the optimiser from deleting work whose result is otherwise unused.
@inline(never) func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
