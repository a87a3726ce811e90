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
            lines.append(
                String(
                    format:
                        "- a find through the daemon costs at most the embedded find plus twice the no-op round trip: %.1f µs against %.1f + 2 × %.1f = %.1f µs",
                    find, embedded, noop, bound))
        }
        if let sequential = p50("daemon: 8 finds (async), one after another"), let concurrent = p50("daemon: 8 finds (async), from 8 concurrent") {
            lines.append(
                String(format: "- 8 concurrent finds from one process take at most 0.6× the same finds one after another: %.2f×", concurrent / sequential))
        }
        if let single = p50("daemon: find (data)"), let eight = p50("daemon: find (data), 8 clients at once") {
            lines.append(
                String(
                    format: "- a find with 8 clients at once, against one alone (information; main's thread-per-connection server measured 0.8–1.6×): %.2f×",
                    eight / single))
        }
        if let idle = rows.first(where: { $0.operation.hasPrefix("idle:") }) {
            let perMille = idle.p50.seconds * 1e6
            lines.append(String(format: "- an idle cofferd with 16 open idle connections uses under 1%% of a core: %.2f%%", perMille / 10))
        }
        return lines.joined(separator: "\n")
    }

    /// One user's finds alone and while another user attacks, side by side, and cofferd's memory.
    static func attack(_ report: DaemonAttackBenchmark.Report) -> String {
        func micro(_ duration: Duration) -> String { Measurement.format(duration) }
        var lines = [
            "", "### One user against another (cofferd, \(report.rows.first?.size ?? 0) items)", "",
            "The attacker (`nobody`) holds 1 000 connections (\(report.held) kept open by the daemon) and sends 16 MiB of a 17 MiB frame on 12 of them, then stalls; the daemon closes those that do not fit in its 96 MiB of bytes in flight.",
            "",
            "| figure | p50 | p99 |", "| --- | --- | --- |",
        ]
        for row in report.rows {
            lines.append("| \(row.operation) | \(micro(row.p50)) | \(micro(row.p99)) |")
        }
        let mebibytes = { (bytes: Int) in String(format: "%.0f MiB", Double(bytes) / 1_048_576) }
        lines.append("")
        lines.append(
            "cofferd's resident memory: \(mebibytes(report.residentBefore)) before the attack, \(mebibytes(report.residentDuring)) during it, \(mebibytes(report.residentAfter)) 2 s after the attacker left."
        )
        if report.rows.count == 2 {
            lines.append("")
            lines.append(
                String(
                    format: "Goal: under attack, the other user's find within 2× of its time alone (p50): %.2f×.",
                    report.rows[1].p50.seconds / report.rows[0].p50.seconds))
        }
        return lines.joined(separator: "\n")
    }
}
