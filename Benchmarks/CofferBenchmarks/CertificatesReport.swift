import Foundation

/// The figures of issue #15 for certificates, trust and identities, stated as met or not from one run's figures.
enum CertificatesReport {
    static func goals(_ figures: CertificatesBenchmark.Figures) -> String {
        func p50(_ prefix: String) -> Double { figures.rows.first { $0.operation.hasPrefix(prefix) }!.p50.seconds }
        func ratio(_ value: Double, _ base: Double) -> String { String(format: "%.2f×", value / base) }
        func micro(_ value: Double) -> String { String(format: "%.1f µs", value * 1e6) }
        func verdict(_ met: Bool) -> String { met ? "met" : "not met" }
        let parse = p50("parse: `SecCertificateCreateWithData`")
        let parseDirect = p50("parse: swift-certificates")
        let trust = p50("trust, SSL policy: `SecTrustCreateWithCertificates`")
        let verifier = p50("trust, SSL policy: swift-certificates `Verifier`")
        let verifierWaiting = p50("trust, SSL policy: the same `Verifier`, from synchronous code")
        let verifierParsing = p50("trust, SSL policy: the same `Verifier` from async code, parsing")
        let basic = p50("trust, basic X.509 policy: the same three calls")
        let basicVerifier = p50("trust, basic X.509 policy: swift-certificates")
        let openssl = p50("trust: `openssl verify")
        let nothing = p50("a process that does nothing")
        let identity = p50("identity query")
        let key = p50("key query")
        return """

            Goals (p50 against p50):
            - Parsing: `SecCertificateCreateWithData` costs \(ratio(parse, parseDirect)) swift-certificates' parse alone (\(micro(parse)) against \(micro(parseDirect))); no goal.
            - Trust evaluation (SSL policy) at most 1.3× swift-certificates' verifier called directly: \(verdict(trust <= 1.3 * verifier)), \(ratio(trust, verifier)) \
            (\(ratio(trust, verifierWaiting)) the verifier called from synchronous code, \(ratio(trust, verifierParsing)) the verifier parsing the DER first); \
            basic X.509 policy \(ratio(basic, basicVerifier)).
            - `openssl verify` as a whole process takes \(micro(openssl)) (a process that does nothing: \(micro(nothing))): \
            \(String(format: "%.0f×", openssl / trust)) Coffer's evaluation in process, \(String(format: "%.0f×", (openssl - nothing) / trust)) once the empty process is taken off.
            - An identity query within 1.5× a plain key query of the same size: \(verdict(identity <= 1.5 * key)), \(ratio(identity, key)) (\(micro(identity)) against \(micro(key))).
            """
    }
}
