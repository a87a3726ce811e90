import CLibCrypto
import KeychainModel
import Foundation

/// An RSA key held by OpenSSL's libcrypto: what Apple's RSA needs and swift-crypto lacks (moduli from 512
/// bits and of any length, raw operations, OAEP and signatures with every SHA-2).
///
/// The key is never changed after it is made and each operation makes its own libcrypto context, so threads
/// may share it. Freeing it clears its numbers.
final class LibCryptoRSAKey: @unchecked Sendable {
    private let key: OpaquePointer

    private init?(_ key: OpaquePointer?) {
        guard let key else { return nil }
        self.key = key
    }

    deinit { coffer_rsa_free(key) }

    /// A new key with a `bits`-bit modulus and exponent 65537; nil when libcrypto cannot make one.
    static func generate(bits: Int) -> LibCryptoRSAKey? {
        guard let bits = Int32(exactly: bits) else { return nil }
        return LibCryptoRSAKey(coffer_rsa_generate(bits))
    }

    /// The private key in a PKCS#1 `RSAPrivateKey`; nil when `der` is none or its numbers do not agree.
    convenience init?(pkcs1PrivateKey der: Data) {
        self.init(der.withUnsafeBytes { coffer_rsa_private_from_pkcs1($0.bindMemory(to: UInt8.self).baseAddress, $0.count) })
    }

    /// The private key in a PKCS#8 `PrivateKeyInfo`; nil when `der` holds no consistent RSA key.
    convenience init?(pkcs8PrivateKey der: Data) {
        self.init(der.withUnsafeBytes { coffer_rsa_private_from_pkcs8($0.bindMemory(to: UInt8.self).baseAddress, $0.count) })
    }

    /// The public key in a PKCS#1 `RSAPublicKey` or an X.509 `SubjectPublicKeyInfo`; nil otherwise.
    convenience init?(publicKey der: Data) {
        self.init(der.withUnsafeBytes { coffer_rsa_public_from_der($0.bindMemory(to: UInt8.self).baseAddress, $0.count) })
    }

    /// The key of big-endian numbers, as SSH keeps them: the public key when `privateNumbers` is nil, else the
    /// private key of `d`, `p`, `q` and `q⁻¹ mod p` (the other CRT values derived), whose numbers must agree.
    convenience init?(modulus: Data, publicExponent: Data, privateNumbers: (d: Data, p: Data, q: Data, coefficient: Data)?) {
        let numbers = [modulus, publicExponent] + (privateNumbers.map { [$0.d, $0.p, $0.q, $0.coefficient] } ?? [])
        guard !numbers.contains(where: \.isEmpty) else { return nil }
        let made = modulus.withUnsafeBytes { n in
            publicExponent.withUnsafeBytes { e in
                guard let numbers = privateNumbers else {
                    return coffer_rsa_from_components(
                        n.bindMemory(to: UInt8.self).baseAddress, n.count, e.bindMemory(to: UInt8.self).baseAddress, e.count,
                        nil, 0, nil, 0, nil, 0, nil, 0)
                }
                return numbers.d.withUnsafeBytes { d in
                    numbers.p.withUnsafeBytes { p in
                        numbers.q.withUnsafeBytes { q in
                            numbers.coefficient.withUnsafeBytes { c in
                                coffer_rsa_from_components(
                                    n.bindMemory(to: UInt8.self).baseAddress, n.count, e.bindMemory(to: UInt8.self).baseAddress, e.count,
                                    d.bindMemory(to: UInt8.self).baseAddress, d.count, p.bindMemory(to: UInt8.self).baseAddress, p.count,
                                    q.bindMemory(to: UInt8.self).baseAddress, q.count, c.bindMemory(to: UInt8.self).baseAddress, c.count)
                            }
                        }
                    }
                }
            }
        }
        self.init(made)
    }

    /// The public half of this key, a key of its own.
    func publicKey() -> LibCryptoRSAKey? { LibCryptoRSAKey(coffer_rsa_public_of(key)) }

    /// The modulus's length in bits.
    var sizeInBits: Int { Int(coffer_rsa_bits(key)) }

    /// The modulus's length in bytes: the length of every signature and ciphertext.
    var blockSize: Int { (sizeInBits + 7) / 8 }

    /// PKCS#1 `RSAPrivateKey` DER; nil for a public key. The caller clears it when done.
    var pkcs1PrivateKey: Data? { export { coffer_rsa_pkcs1(key, 1, $0, $1) } }

    /// PKCS#1 `RSAPublicKey` DER.
    var pkcs1PublicKey: Data? { export { coffer_rsa_pkcs1(key, 0, $0, $1) } }

    /// X.509 `SubjectPublicKeyInfo` DER of the public half.
    var subjectPublicKeyInfo: Data? { export { coffer_rsa_subject_public_key_info(key, $0, $1) } }

    /// The modulus, big-endian, exactly ``blockSize`` bytes.
    var modulus: Data? { export(capacity: blockSize) { coffer_rsa_modulus(key, $0, $1) } }

    /// The public exponent, big-endian without leading zeros.
    var publicExponent: Data? { export(capacity: blockSize) { coffer_rsa_public_exponent(key, $0, $1) } }

    /// The bytes `write` produces: it is called once for the length (a nil buffer), once to fill it.
    private func export(_ write: (UnsafeMutablePointer<UInt8>?, Int) -> Int) -> Data? {
        let length = write(nil, 0)
        guard length > 0 else { return nil }
        return export(capacity: length, write)
    }

    /// The bytes `write` puts in a buffer of `capacity`, returning their length (or -1).
    private func export(capacity: Int, _ write: (UnsafeMutablePointer<UInt8>?, Int) -> Int) -> Data? {
        var output = Data(count: capacity)
        let length = output.withUnsafeMutableBytes { write($0.bindMemory(to: UInt8.self).baseAddress, $0.count) }
        guard length > 0 else {
            output.zeroize()
            return nil
        }
        if length < capacity {
            let result = output.prefix(length)
            output.zeroize()
            return Data(result)
        }
        return output
    }
}

extension LibCryptoRSAKey {
    /// How an operation pads its input.
    enum Padding {
        /// None: the raw operation on a block as long as the modulus and below it.
        case none
        /// PKCS#1 v1.5; for signatures, with the DigestInfo of `digest` (none when nil).
        case pkcs1(digest: DigestAlgorithm?)
        /// PSS: MGF1 with `digest`, a salt as long as the digest (signatures only).
        case pss(digest: DigestAlgorithm)
        /// OAEP: MGF1 and the label's hash both `digest`, an empty label (encryption only).
        case oaep(digest: DigestAlgorithm)

        fileprivate var c: coffer_rsa_padding {
            switch self {
            case .none: COFFER_RSA_NO_PADDING
            case .pkcs1: COFFER_RSA_PKCS1
            case .pss: COFFER_RSA_PSS
            case .oaep: COFFER_RSA_OAEP
            }
        }

        fileprivate var digestName: String? {
            switch self {
            case .none, .pkcs1(digest: nil): nil
            case .pkcs1(digest: let digest?), .pss(let digest), .oaep(let digest): digest.openSSLName
            }
        }
    }

    /// Why an operation failed.
    enum Failure: Error {
        /// The input does not fit the padding or the modulus, or does not decrypt.
        case badInput
        /// libcrypto failed otherwise.
        case failed
    }

    /// The signature of `input` with `padding` (a digest of its hash, or for raw and digest-less PKCS#1 the
    /// block or the data to pad), as long as the modulus.
    func sign(_ input: Data, padding: Padding) throws(Failure) -> Data {
        try produce(input, padding: padding, coffer_rsa_sign)
    }

    /// Whether `signature` signs `input` under `padding`.
    func isValidSignature(_ signature: Data, for input: Data, padding: Padding) -> Bool {
        let outcome = input.withUnsafeBytes { input in
            signature.withUnsafeBytes { signature in
                padding.digestName.withOptionalCString { digest in
                    coffer_rsa_verify(
                        key, padding.c, digest, input.bindMemory(to: UInt8.self).baseAddress, input.count,
                        signature.bindMemory(to: UInt8.self).baseAddress, signature.count)
                }
            }
        }
        return outcome == COFFER_RSA_OK
    }

    /// `input` encrypted with the public half under `padding`: a block as long as the modulus.
    func encrypt(_ input: Data, padding: Padding) throws(Failure) -> Data {
        try produce(input, padding: padding, coffer_rsa_encrypt)
    }

    /// The plaintext of the block `input` under `padding`. The caller clears it when done.
    func decrypt(_ input: Data, padding: Padding) throws(Failure) -> Data {
        try produce(input, padding: padding, coffer_rsa_decrypt)
    }

    private typealias Operation = (
        OpaquePointer?, coffer_rsa_padding, UnsafePointer<CChar>?, UnsafePointer<UInt8>?, Int,
        UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<Int>?
    ) -> Int32

    private func produce(_ input: Data, padding: Padding, _ operation: Operation) throws(Failure) -> Data {
        var output = Data(count: blockSize)
        var length = output.count
        let outcome = input.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { output in
                padding.digestName.withOptionalCString { digest in
                    operation(
                        key, padding.c, digest, input.bindMemory(to: UInt8.self).baseAddress, input.count,
                        output.bindMemory(to: UInt8.self).baseAddress, &length)
                }
            }
        }
        guard outcome == COFFER_RSA_OK else {
            output.zeroize()
            throw outcome == COFFER_RSA_BAD_INPUT ? .badInput : .failed
        }
        guard length < output.count else { return output }
        let result = Data(output.prefix(length))
        output.zeroize()
        return result
    }
}

extension Optional where Wrapped == String {
    /// `body` with the C string of the value, or with nil.
    fileprivate func withOptionalCString<Result>(_ body: (UnsafePointer<CChar>?) -> Result) -> Result {
        switch self {
        case .some(let string): string.withCString(body)
        case .none: body(nil)
        }
    }
}

extension DigestAlgorithm {
    /// The name libcrypto fetches the hash by.
    fileprivate var openSSLName: String {
        switch self {
        case .sha1: "SHA1"
        case .sha224: "SHA224"
        case .sha256: "SHA256"
        case .sha384: "SHA384"
        case .sha512: "SHA512"
        }
    }
}
