import Foundation

/// Times an operation over repeated rounds and reports the median per-operation cost.
struct Measurement {
    let name: String
    let perOperation: [Duration]

    var median: Duration { perOperation.sorted()[perOperation.count / 2] }
    var minimum: Duration { perOperation.min() ?? .zero }
    var maximum: Duration { perOperation.max() ?? .zero }

    /// Runs `body` `operations` times per round for `rounds` rounds (after one warm-up round).
    static func run(_ name: String, rounds: Int, operations: Int, _ body: () throws -> Void) rethrows -> Measurement {
        let clock = ContinuousClock()
        for _ in 0..<min(operations, 10) { try body() }
        var samples: [Duration] = []
        for _ in 0..<rounds {
            let elapsed = try clock.measure { for _ in 0..<operations { try body() } }
            samples.append(elapsed / operations)
        }
        return Measurement(name: name, perOperation: samples)
    }

    /// A Markdown table row: name, median, min, max.
    var row: String { "| \(name) | \(Self.format(median)) | \(Self.format(minimum)) | \(Self.format(maximum)) |" }

    static func format(_ duration: Duration) -> String {
        let microseconds = Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
        if microseconds >= 10_000 { return String(format: "%.1f ms", microseconds / 1000) }
        if microseconds >= 100 { return String(format: "%.0f µs", microseconds) }
        return String(format: "%.2f µs", microseconds)
    }
}

extension Duration {
    /// The duration in seconds, as a floating-point number.
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
