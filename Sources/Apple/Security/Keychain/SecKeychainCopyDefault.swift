/// Hands out the default keychain in `keychain` (`SecKeychainCopyDefault`): the process's one keychain,
/// the same that `nil` stands for. Always ``errSecSuccess``.
@discardableResult
public func SecKeychainCopyDefault(_ keychain: UnsafeMutablePointer<SecKeychain?>) -> OSStatus {
    keychain.pointee = SecKeychain.default
    Diagnostics.log("SecKeychainCopyDefault", status: .success)
    return errSecSuccess
}
