import Foundation

/// A certificate from a PKCS#12 file's certificate bag.
public struct PKCS12Certificate: Sendable, Equatable {
    /// The X.509 certificate's DER, as the file holds it (not checked to be a certificate).
    public let der: Data
    /// The bag's attributes.
    public let attributes: PKCS12BagAttributes
}
