import Foundation

/// The goals of issue #14 for keys, stated as met or not from one run's figures.
enum KeysReport {
    static func goals(_ figures: KeysBenchmark.Figures) -> String {
        func p50(_ prefix: String) -> Double { figures.rows.first { $0.operation.hasPrefix(prefix) }!.p50.seconds }
        func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }
        func micro(_ value: Double) -> String { String(format: "%.1f µs", value * 1e6) }
        let direct = p50("swift-crypto: P-256 sign")
        let software = p50("SecKey: P-256 sign")
        let enclave = p50("embedded: P-256 sign with a key that never leaves")
        let daemon = p50("daemon: P-256 sign with a key that never leaves")
        let noOp = figures.noOpRoundTrip.seconds
        let find = p50("embedded: find a key by tag")
        let findAndSign = p50("embedded: find by tag and sign")
        func verdict(_ met: Bool) -> String { met ? "met" : "not met" }
        return """

            Goals (p50 against p50):
            - An embedded software-key P-256 sign at most 1.5× the direct cost: \(verdict(software <= 1.5 * direct)), \(ratio(software, direct)).
            - An embedded key that never leaves, P-256 sign, at most 1.5× the direct cost: \(verdict(enclave <= 1.5 * direct)), \(ratio(enclave, direct)).
            - Through the daemon at most the direct cost plus two no-op round trips (\(micro(direct)) + 2 × \(micro(noOp)) = \(micro(direct + 2 * noOp))): \(verdict(daemon <= direct + 2 * noOp)), \(micro(daemon)).
            - A key found by tag and signed with, in one call path, at most 1.5× (find + direct sign = \(micro(find + direct))): \(verdict(findAndSign <= 1.5 * (find + direct))), \(ratio(findAndSign, find + direct)).
            """
    }
}
