import Foundation

/// Makes `anchorCertificates` the only anchors the trust trusts, or, with nil, restores the system's anchors.
///
/// As on Apple platforms, setting anchors also leaves out the system's anchors, until
/// ``SecTrustSetAnchorCertificatesOnly(_:_:)`` with `false` adds them back; nil trusts the system's anchors only.
/// An array that holds anything but certificates gives `errSecParam`. The last result is discarded.
public func SecTrustSetAnchorCertificates(_ trust: SecTrust, _ anchorCertificates: CFArray?) -> OSStatus {
    var anchors: [SecCertificate]?
    if let anchorCertificates {
        let list = anchorCertificates.compactMap { $0 as? SecCertificate }
        guard list.count == anchorCertificates.count else { return errSecParam }
        anchors = list
    }
    trust.change {
        $0.customAnchors = anchors
        $0.anchorsOnly = anchors != nil
    }
    return errSecSuccess
}

/// With `true`, the trust trusts only the anchors ``SecTrustSetAnchorCertificates(_:_:)`` set (none, if it was not
/// called); with `false`, the system's anchors too. The last result is discarded.
public func SecTrustSetAnchorCertificatesOnly(_ trust: SecTrust, _ anchorCertificatesOnly: Bool) -> OSStatus {
    trust.change { $0.anchorsOnly = anchorCertificatesOnly }
    return errSecSuccess
}

/// The date the certificates' validity is checked at, instead of the time of evaluation (to check a signature made
/// in the past, say). The last result is discarded.
public func SecTrustSetVerifyDate(_ trust: SecTrust, _ verifyDate: CFDate) -> OSStatus {
    let date = verifyDate as Date
    trust.change { $0.verifyDate = date }
    return errSecSuccess
}
