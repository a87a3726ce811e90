import Foundation

/// The daemon figures held against their goals.
enum DaemonReport {
    static func goals(_ rows: [ItemsBenchmark.Row]) -> String {
        func p50(_ operation: String) -> Double? {
            rows.first { $0.operation.hasPrefix(operation) }.map { $0.p50.seconds * 1e6 }
        }
        var lines = ["", "Goals (p50):", ""]
        if let find = p50("daemon: find (data)"), let embedded = p50("embedded: find (data)"), let noop = p50("daemon: lock") {
            let bound = embedded + 2 * noop
            lines.append(String(format: "- a find through the daemon costs at most the embedded find plus twice the no-op round trip: %.1f µs against %.1f + 2 × %.1f = %.1f µs", find, embedded, noop, bound))
        }
        if let sequential = p50("daemon: 8 finds (async), one after another"), let concurrent = p50("daemon: 8 finds (async), from 8 concurrent") {
            lines.append(String(format: "- 8 concurrent finds from one process take at most 0.6× the same finds one after another: %.2f×", concurrent / sequential))
        }
        if let idle = rows.first(where: { $0.operation.hasPrefix("idle:") }) {
            let perMille = idle.p50.seconds * 1e6
            lines.append(String(format: "- an idle cofferd with 16 open idle connections uses under 1%% of a core: %.2f%%", perMille / 10))
        }
        return lines.joined(separator: "\n")
    }
}
