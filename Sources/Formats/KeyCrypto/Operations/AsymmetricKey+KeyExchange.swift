import Foundation

extension AsymmetricKey {
    /// The largest X9.63 KDF output a key exchange derives (1 MiB). Apple sets no bound of its own; this one
    /// keeps a request for gigabytes from taking the process's memory.
    public static let maximumDerivedSecretByteCount = 1 << 20

    /// `SecKeyCopyKeyExchangeResult`: the secret this private EC key agrees on with `peer`'s public key.
    ///
    /// The raw algorithms return the ECDH shared secret (the x coordinate, ``blockSize`` bytes) and ignore
    /// the parameters. The X9.63 algorithms need `requestedSize` (`kSecKeyKeyExchangeParameterRequestedSize`,
    /// 1 to ``maximumDerivedSecretByteCount`` bytes; missing or out of range is `errSecParam`) and take
    /// `sharedInfo` (`kSecKeyKeyExchangeParameterSharedInfo`, empty when nil). A peer that is not an EC public
    /// key is `errSecParam`; one on another curve is `errSecDecode`, as corecrypto reports it.
    public func sharedSecret(
        with peer: AsymmetricKey, algorithm: KeyAlgorithm, requestedSize: Int?, sharedInfo: Data?
    ) throws(KeyCryptoError) -> Data {
        guard case .ecPrivate(let key) = material, case .ecdh(let kdf) = try supportedSpec(algorithm, for: .keyExchange)
        else { throw .unsupported(algorithm, by: self) }
        guard case .ecPublic(let peerKey) = peer.material else {
            throw .param("ECpriv sharedsecret: bad public key (\(peer.summary))")
        }
        let secret = try key.sharedSecret(with: peerKey)
        guard let kdf else { return secret.bytes }
        guard let requestedSize else { throw .param("kSecKeyKeyExchangeParameterRequestedSize is missing") }
        guard (1...Self.maximumDerivedSecretByteCount).contains(requestedSize) else {
            throw .param("ECDHKeyExchange wrong input: requested size \(requestedSize)")
        }
        return secret.x963DerivedKey(kdf, sharedInfo: sharedInfo ?? Data(), byteCount: requestedSize).withUnsafeBytes { Data($0) }
    }
}
