import Foundation

/// Makes a trust for the first certificate of `certificates`, the others being certificates that may complete its
/// chain (intermediates, in any order).
///
/// `certificates` is a ``SecCertificate`` or a non-empty array of them; `policies` a ``SecPolicy``, a non-empty
/// array of them (all must be met), or nil for ``SecPolicyCreateBasicX509()``. Anything else, or an array holding
/// something else, gives `errSecParam` and leaves `trust` unchanged, as Apple's does. The new trust trusts the
/// system's anchors (`/etc/ssl/certs/ca-certificates.crt`), checks at the time of evaluation, and is not evaluated.
public func SecTrustCreateWithCertificates(
    _ certificates: CFTypeRef, _ policies: CFTypeRef?, _ trust: UnsafeMutablePointer<SecTrust?>
) -> OSStatus {
    guard let certificateList = TrustInput.objects(certificates, of: SecCertificate.self) else {
        Diagnostics.log("SecTrustCreateWithCertificates", status: .param, reason: "certificates is not a certificate or a non-empty array of certificates")
        return errSecParam
    }
    let policyList: [SecPolicy]
    if let policies {
        guard let list = TrustInput.objects(policies, of: SecPolicy.self) else {
            Diagnostics.log("SecTrustCreateWithCertificates", status: .param, reason: "policies is not a policy or a non-empty array of policies")
            return errSecParam
        }
        policyList = list
    } else {
        policyList = [SecPolicyCreateBasicX509()]
    }
    trust.pointee = SecTrust(certificates: certificateList, policies: policyList)
    Diagnostics.log("SecTrustCreateWithCertificates", status: .success)
    return errSecSuccess
}

/// Replaces the trust's policies with `policies`: a ``SecPolicy`` or a non-empty array of them (`errSecParam`
/// otherwise). The last result is discarded.
public func SecTrustSetPolicies(_ trust: SecTrust, _ policies: CFTypeRef) -> OSStatus {
    guard let list = TrustInput.objects(policies, of: SecPolicy.self) else { return errSecParam }
    trust.change { $0.policies = list }
    return errSecSuccess
}

/// The trust's policies, as an array of ``SecPolicy``.
public func SecTrustCopyPolicies(_ trust: SecTrust, _ policies: UnsafeMutablePointer<CFArray?>) -> OSStatus {
    policies.pointee = NSArray(array: trust.settings.policies)
    return errSecSuccess
}

/// What Apple's trust functions accept where they take "one object or an array of them".
enum TrustInput {
    /// `value` itself, or the elements of a non-empty array whose every element is one; nil otherwise.
    static func objects<Object: AnyObject>(_ value: CFTypeRef, of type: Object.Type) -> [Object]? {
        if let object = value as? Object { return [object] }
        guard let array = value as? NSArray, array.count > 0 else { return nil }
        let objects = array.compactMap { $0 as? Object }
        return objects.count == array.count ? objects : nil
    }
}
