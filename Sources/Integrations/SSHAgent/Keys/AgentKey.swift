import Foundation
import KeyCrypto

/// A key the agent offers: a private key item of the keychain whose tag is the agent's (``AgentKeyTag``), read
/// without its private bytes (``KeychainAgentStore/privateKey(of:)`` fetches them for a signature).
public struct AgentKey: Sendable {
    /// Its public key.
    public let publicKey: AsymmetricKey
    /// The blob clients name it by: the public key's, or for a certificate identity the certificate's.
    public let blob: Data
    /// The comment (`kSecAttrLabel`).
    public let comment: String
    /// The tag it is stored under, with its constraints.
    public let tag: AgentKeyTag
    /// The tag's stored bytes, to delete exactly this item.
    public let tagData: Data
    /// `kSecAttrApplicationLabel`.
    public let applicationLabel: Data
    /// Whether the key was made in the keychain (`coffer create-key --ssh`) and can never leave it.
    public let isKeychainMade: Bool
}
