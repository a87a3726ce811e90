/// A NIST prime curve swift-crypto offers. Apple's software keys also know P-192 and P-224, which
/// swift-crypto does not: those sizes are refused.
enum ECCurve: Sendable, Hashable {
    case p256, p384, p521

    /// The curve of `sizeInBits` (256, 384, 521), if swift-crypto has it.
    init?(sizeInBits: Int) {
        switch sizeInBits {
        case 256: self = .p256
        case 384: self = .p384
        case 521: self = .p521
        default: return nil
        }
    }

    /// The curve whose X9.63 public key (`04‖X‖Y`) is `count` bytes long.
    init?(publicRepresentationCount count: Int) {
        guard let curve = [ECCurve.p256, .p384, .p521].first(where: { $0.publicRepresentationCount == count }) else {
            return nil
        }
        self = curve
    }

    /// The curve whose X9.63 private key (`04‖X‖Y‖K`) is `count` bytes long.
    init?(privateRepresentationCount count: Int) {
        guard let curve = [ECCurve.p256, .p384, .p521].first(where: { $0.privateRepresentationCount == count }) else {
            return nil
        }
        self = curve
    }

    /// The key size Apple reports (`kSecAttrKeySizeInBits`).
    var sizeInBits: Int {
        switch self {
        case .p256: 256
        case .p384: 384
        case .p521: 521
        }
    }

    /// The byte size of a field element: `SecKeyGetBlockSize`, the length of each of r and s in an RFC 4754
    /// signature, and of the ECDH shared secret.
    var byteCount: Int { (sizeInBits + 7) / 8 }

    /// `04‖X‖Y`.
    var publicRepresentationCount: Int { 1 + 2 * byteCount }

    /// `04‖X‖Y‖K`.
    var privateRepresentationCount: Int { 1 + 3 * byteCount }
}
