// Coffer's benchmarks. Run with Benchmarks/run.sh (release build); it writes BENCHMARKS.md.
//
//   CofferBenchmarks [--quick] [suite…]     suites: keystore
import CofferDiagnostics
import Foundation

DiagnosticsLevel.bootstrapExecutable()

let arguments = Array(CommandLine.arguments.dropFirst())
let quick = arguments.contains("--quick")
let requested = Set(arguments.filter { !$0.hasPrefix("--") })
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-bench-\(UUID().uuidString)")
defer { try? FileManager.default.removeItem(at: scratch) }

func section(_ title: String, _ measurements: [Measurement]) {
    print("\n### \(title)\n")
    print("| operation | median per op | min | max |")
    print("| --- | --- | --- | --- |")
    for measurement in measurements { print(measurement.row) }
}

do {
    if requested.isEmpty || requested.contains("keystore") {
        section("Keystore", try KeystoreBenchmark.run(in: scratch, quick: quick))
        print("""

            The passcode KDF is calibrated when a passcode is set: N starts at 2^15 and doubles until one \
            derivation takes at least 100 ms on the machine (release build). Item-key wrap and unwrap are what \
            every item write and secret read pay on top of SQLite.
            """)
    }
} catch {
    FileHandle.standardError.write(Data("benchmark failed: \(error)\n".utf8))
    exit(1)
}
