import Foundation
import KeychainModel

extension AsymmetricKey: Equatable, Hashable {
    /// Whether both keys have the same type, class and external representation, as Apple's key objects
    /// compare. Private keys are compared without keeping copies of their bytes.
    public static func == (lhs: AsymmetricKey, rhs: AsymmetricKey) -> Bool {
        guard lhs.type == rhs.type, lhs.keyClass == rhs.keyClass else { return false }
        var left = lhs.externalRepresentation()
        var right = rhs.externalRepresentation()
        defer {
            left.zeroize()
            right.zeroize()
        }
        guard left.count == right.count else { return false }
        return zip(left, right).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// Hashes the type, the class and the public key bytes: equal keys have equal public keys, and no
    /// private bytes are fed to the hasher.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(keyClass)
        hasher.combine(publicKeyBytes)
    }
}
