import CertificateParsing
import Foundation
import SwiftASN1
import X509

/// One evaluation of a trust's settings with swift-certificates' `Verifier`, and, when it fails, the failure Apple
/// would report.
///
/// The verifier answers only "valid, with this chain" or "no valid chain". To name the failure as Apple does, a
/// failed evaluation is repeated with fewer checks, most serious kind first (Apple's order): without the validity
/// dates and SSL checks, a failure is one of trust (the chain ends at an untrusted self-signed certificate: Apple's
/// `AnchorTrusted`; at a certificate whose issuer was not found: `MissingIntermediate`); with a chain found that
/// way, the leaf's extended key usage, then its host name, then the certificates' dates are checked on it. Only
/// failures pay for the repeats.
struct TrustEvaluator: Sendable {
    let settings: SecTrust.Settings

    init(_ settings: SecTrust.Settings) {
        self.settings = settings
    }

    func evaluate() async -> TrustOutcome {
        let time = settings.verifyDate ?? Date()
        // The certificates given, each with swift-certificates' reading of it (kept by the SecCertificate, so an
        // evaluation reads no DER again), to hand back the chain as the caller's objects.
        var known: [(parsed: Certificate, given: SecCertificate)] = []
        func parsed(_ certificates: [SecCertificate]) -> [Certificate] {
            certificates.compactMap { certificate in
                guard let parsed = certificate.parsed else { return nil }
                known.append((parsed, certificate))
                return parsed
            }
        }
        let leafCertificate = settings.certificates[0]
        guard let leaf = parsed([leafCertificate]).first else {
            // swift-certificates reads RSA, EC (P-256/384/521) and Ed25519 keys only: Apple's WeakKeySize check
            // rejects the key types it does not know, too.
            return TrustOutcome(result: .fatalTrustFailure, chain: [leafCertificate], failure: TrustFailure(check: .unsupportedKey, index: 0))
        }
        let intermediates = parsed(Array(settings.certificates.dropFirst()))
        let customAnchors = parsed(settings.customAnchors ?? [])
        let roots = settings.anchorsOnly ? CertificateStore(customAnchors) : SystemAnchors.store.appending(contentsOf: customAnchors)
        let intermediateStore = CertificateStore(intermediates)
        func chain(_ certificates: some Sequence<Certificate>) -> [SecCertificate] {
            certificates.compactMap { certificate in
                known.first { $0.parsed.serialNumber == certificate.serialNumber && $0.parsed == certificate }?.given
                    ?? Self.secCertificate(certificate)
            }
        }
        func validChain(_ policy: TrustPolicy) async -> [Certificate]? {
            var verifier = Verifier(rootCertificates: roots) { policy }
            guard case .validCertificate(let chain) = await verifier.validate(leaf: leaf, intermediates: intermediateStore) else { return nil }
            return Array(chain)
        }

        if let trusted = await validChain(.complete(settings.policies, at: time)) {
            return TrustOutcome(result: .unspecified, chain: chain(trusted), failure: nil)
        }
        let failure: TrustFailure
        let failedChain: [Certificate]
        if let structural = await validChain(.structure()) {
            failedChain = structural
            let purposes = TrustPolicy.purposes(settings.policies)
            let hostnames = settings.policies.compactMap(\.hostname)
            if !purposes.allSatisfy({ TrustPolicy.allowsPurpose(of: leaf, server: $0) }) {
                failure = TrustFailure(check: .extendedKeyUsage, index: 0)
            } else if !hostnames.isEmpty, await validChain(.structure(hostnames: hostnames)) == nil {
                failure = TrustFailure(check: .hostname, index: 0)
            } else if let index = structural.firstIndex(where: { time < $0.notValidBefore || time > $0.notValidAfter }) {
                failure = TrustFailure(check: .temporalValidity, index: index)
            } else {
                failure = TrustFailure(check: .basicProcessing, index: 0)
            }
        } else {
            let anchors = settings.anchorsOnly ? customAnchors : SystemAnchors.certificates + customAnchors
            (failedChain, failure) = Self.unanchoredPath(from: leaf, intermediates: intermediates, anchors: anchors)
        }
        return TrustOutcome(result: failure.result, chain: chain(failedChain), failure: failure)
    }

    /// The path Apple reports when no chain reaches a trusted anchor: the leaf, then issuers (anchors first, then the
    /// certificates given) whose subject is the issuer's name and whose key verifies the signature, as far as they
    /// go; and why it stops there.
    static func unanchoredPath(from leaf: Certificate, intermediates: [Certificate], anchors: [Certificate]) -> ([Certificate], TrustFailure) {
        var path = [leaf]
        while let tip = path.last, !anchors.contains(tip) {
            let issuer = (anchors + intermediates).first { candidate in
                candidate.subject == tip.issuer && !path.contains(candidate)
                    && candidate.publicKey.isValidSignature(tip.signature, for: tip)
            }
            guard let issuer else { break }
            path.append(issuer)
        }
        let tip = path[path.count - 1]
        if anchors.contains(tip) {
            // A chain to an anchor that RFC 5280's checks reject.
            return (path, TrustFailure(check: .basicProcessing, index: 0))
        }
        let selfSigned = tip.subject == tip.issuer && tip.publicKey.isValidSignature(tip.signature, for: tip)
        return (path, TrustFailure(check: selfSigned ? .anchorNotTrusted : .missingIntermediate, index: path.count - 1))
    }

    /// A certificate from a system anchor, for the chain handed back.
    static func secCertificate(_ certificate: Certificate) -> SecCertificate? {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil else { return nil }
        return SecCertificate(der: serializer.serializedBytes)
    }
}

extension SecCertificate {
    /// A certificate from DER the evaluator already parsed, or nil if Coffer's reading refuses it.
    convenience init?(der: [UInt8]) {
        guard let contents = try? CertificateContents(derEncoded: der) else { return nil }
        try? self.init(contents: contents)
    }
}
