import Foundation

/// The attributes RFC 7292 §4.2 gives a bag, as the file holds them: what pairs a key with its certificate.
public struct PKCS12BagAttributes: Sendable, Equatable {
    /// The `friendlyName` attribute (a BMPString), if present: what `openssl pkcs12 -name` sets.
    public let friendlyName: String?
    /// The `localKeyId` attribute, if present: the same bytes on a key and its certificate (OpenSSL writes the
    /// certificate's SHA-1).
    public let localKeyID: Data?

    /// Attributes with these values.
    public init(friendlyName: String?, localKeyID: Data?) {
        self.friendlyName = friendlyName
        self.localKeyID = localKeyID
    }
}
