import CertificateParsing
import Foundation
import Security

extension PinSet {
    /// Checks a chain, leaf first, at `date`: ``PinCheck/matched(_:chainIndex:)`` for the first certificate whose
    /// key is pinned, ``PinCheck/noMatch`` when none is, ``PinCheck/notEnforced(expiredAt:)`` once the set expired.
    ///
    /// This checks pins only. Use it on a chain that trust evaluation accepted (as ``check(_:at:)`` and
    /// ``PeerTrustVerifier`` do): pinning adds to trust evaluation, it does not replace it.
    public func check(chain: [SecCertificate], at date: Date = Date()) -> PinCheck {
        check(derChain: chain.map { Array(SecCertificateCopyData($0) as Data) }, at: date)
    }

    /// ``check(chain:at:)`` for certificates given as DER. A certificate that cannot be read matches no pin.
    public func check(derChain: [[UInt8]], at date: Date = Date()) -> PinCheck {
        guard isEnforced(at: date) else { return .notEnforced(expiredAt: expiration) }
        for (index, der) in derChain.enumerated() {
            guard let pin = try? SPKIPin(certificateDER: der) else { continue }
            if pins.contains(pin) { return .matched(pin, chainIndex: index) }
        }
        return .noMatch
    }

    /// Checks the chain a trust evaluation built (to its anchor, so a pinned root or intermediate that the server
    /// did not send still matches). ``PinCheck/trustFailed`` when the trust is not trusted.
    ///
    /// Evaluate the trust first (`SecTrustEvaluateWithError` or `SecTrustEvaluateAsyncWithError`):
    /// this reads its result. A trust that has none is evaluated here, and the calling thread waits for it.
    public func check(_ trust: SecTrust, at date: Date = Date()) -> PinCheck {
        var result = SecTrustResultType.invalid
        guard SecTrustGetTrustResult(trust, &result) == errSecSuccess, result == .unspecified || result == .proceed else {
            return .trustFailed
        }
        let chain = (SecTrustCopyCertificateChain(trust) as? [SecCertificate]) ?? []
        return check(chain: chain, at: date)
    }
}
