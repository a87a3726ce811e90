import Query

extension LAAccessControlOperation {
    /// What `control` requires before this operation; nil when it requires nothing (reference §6.2).
    ///
    /// Creating an item or a key is never gated. Reading an item is gated by the constraints unless they
    /// protect a private key's use (`privateKeyUsage`); the private-key operations are gated by the
    /// constraints either way (without `privateKeyUsage`, using the key means reading it).
    func requirement(for control: AccessControl) -> AuthenticationRequirement? {
        switch self {
        case .createItem, .createKey:
            nil
        case .useItem:
            AuthenticationRequirement(accessControl: control)
        case .useKeySign, .useKeyDecrypt, .useKeyKeyExchange:
            AuthenticationRequirement(
                accessControl: AccessControl(
                    protection: control.protection, flags: control.flags.subtracting(.privateKeyUsage),
                    boundBiometrySet: control.boundBiometrySet))
        }
    }
}
