import Foundation

/// `SecPolicy`: the rules a ``SecTrust`` evaluates a certificate chain against, made with
/// ``SecPolicyCreateBasicX509()`` or ``SecPolicyCreateSSL(_:_:)``.
///
/// A policy is immutable. Every policy asks for a chain to a trusted anchor whose certificates are valid at the
/// verify date and pass RFC 5280's checks; an SSL policy adds the leaf's host name and extended key usage.
public final class SecPolicy: Sendable {
    /// What the policy checks beyond a valid chain.
    enum Kind: Sendable, Equatable {
        /// Apple's `kSecPolicyAppleX509Basic`.
        case basicX509
        /// Apple's SSL policy: for a server (or a client), and the name the leaf must carry, if one was given.
        case ssl(server: Bool, hostname: String?)
    }

    let kind: Kind

    init(_ kind: Kind) {
        self.kind = kind
    }

    /// The host name the leaf must carry: the name an SSL policy was made with.
    var hostname: String? {
        if case .ssl(_, let hostname) = kind { return hostname }
        return nil
    }
}

/// The legacy spelling of ``SecPolicy``.
public typealias SecPolicyRef = SecPolicy

/// The type identifier of ``SecPolicy``, for comparison with ``CFGetTypeID(_:)``.
public func SecPolicyGetTypeID() -> CFTypeID { TypeIdentifier.policy.rawValue }

/// The basic X.509 policy: a chain from the certificate to a trusted anchor, every certificate valid at the verify
/// date and conforming to RFC 5280 (basic constraints, key usage of issuers, name constraints, known critical
/// extensions). Nothing is fetched from the network. It is the policy ``SecTrustCreateWithCertificates(_:_:_:)``
/// uses when given none.
public func SecPolicyCreateBasicX509() -> SecPolicy {
    SecPolicy(.basicX509)
}

/// The SSL policy: the basic X.509 checks, plus, when `hostname` is given, a leaf whose subject alternative names
/// include it (a DNS name, with `*.` wildcards as the leftmost label, or an IP address written as such; the common
/// name is not consulted, as on Apple platforms), and a leaf whose extended key usage, when present, allows TLS
/// server authentication (`server` true: server authentication, or the Netscape or Microsoft server-gated
/// cryptography purposes) or client authentication (`server` false). `anyExtendedKeyUsage` satisfies both.
public func SecPolicyCreateSSL(_ server: Bool, _ hostname: CFString?) -> SecPolicy {
    SecPolicy(.ssl(server: server, hostname: hostname.map { $0 as String }))
}
