/// Checks the measured figures against the goals and says so in words.
enum ItemsReport {
    static func goals(_ rows: [ItemsBenchmark.Row]) -> String {
        func p50(_ size: Int, _ operation: String) -> Double? {
            rows.first { $0.size == size && $0.operation == operation }.map { $0.p50.seconds }
        }
        var lines = ["", "Goals (p50):", ""]
        let sizes = Array(Set(rows.map(\.size))).sorted()
        for size in sizes {
            if let find = p50(size, "find (data)"), let raw = p50(size, "raw SQLite: indexed lookup") {
                lines.append("- \(size) items: find (data) is \(ratio(find / raw)) the raw lookup (goal ≤ 2.5×)")
            }
            if let add = p50(size, "add (durable)"), let raw = p50(size, "raw SQLite: durable insert") {
                lines.append("- \(size) items: durable add is \(ratio(add / raw)) the raw durable insert (goal ≤ 2×)")
            }
        }
        if let smallest = sizes.first, let largest = sizes.last, smallest != largest {
            for operation in ["find (data)", "find (attributes)", "add (durable)", "update (data)", "delete"] {
                if let small = p50(smallest, operation), let large = p50(largest, operation) {
                    lines.append("- \(operation): \(largest) items vs \(smallest) is \(ratio(large / small)) (goal ≤ 1.5×)")
                }
            }
        }
        return lines.joined(separator: "\n")
    }

    /// What the find goal leaves once a find's cryptography is paid: the raw lookup plus the crypto floor,
    /// as a multiple of the raw lookup, per size.
    static func floor(_ rows: [ItemsBenchmark.Row], crypto: Duration, blindIndexes: Int) -> String {
        var lines = [
            "",
            "A find (data) must compute \(blindIndexes) blind indexes and one row tag, open two AES-GCM blobs and unwrap "
                + "one key: \(Measurement.format(crypto)) of cryptography before anything else. Added to the raw lookup "
                + "alone, that is already:",
            "",
        ]
        for size in Array(Set(rows.map(\.size))).sorted() {
            guard let raw = rows.first(where: { $0.size == size && $0.operation == "raw SQLite: indexed lookup" }) else { continue }
            lines.append("- \(size) items: \(ratio((raw.p50 + crypto).seconds / raw.p50.seconds)) the raw lookup")
        }
        return lines.joined(separator: "\n")
    }

    private static func ratio(_ value: Double) -> String { "\((value * 100).rounded() / 100)×" }
}
