import Foundation
import KeyCrypto
import KeychainSelection
import KeychainModel
import Security

/// The key commands' calls into Apple's `Security` functions, on the command's keychain, with failures
/// reported as the item commands report them (`security`'s exit codes, the status by name).
enum KeyCalls {
    /// Runs `body` with `Security`'s functions on `client`, the command's keychain.
    static func using<Result>(_ client: any KeychainClient, _ body: () throws -> Result) throws -> Result {
        try SharedKeychainClient.$taskClient.withValue(client, operation: body)
    }

    /// The value of a `Security` call that reports failures through a `CFError`; its failure as a CLI failure.
    static func check<Value>(_ command: String, _ call: (inout Unmanaged<CFError>?) -> Value?) throws -> Value {
        var error: Unmanaged<CFError>?
        if let value = call(&error) { return value }
        guard let failure = error?.takeRetainedValue() else {
            throw ItemCommandSupport.failure(command, KeychainFailure(.internal))
        }
        let status = KeychainStatus(code: Int32(truncatingIfNeeded: CFErrorGetCode(failure)))
        throw ItemCommandSupport.failure(command, KeychainFailure(status, reason: String(CFErrorCopyDescription(failure))))
    }

    /// A `SecAccessControl` with `flags`, in `protection` (when-unlocked, this device only, by default).
    static func accessControl(
        protection: ProtectionOption?, flags: SecAccessControlCreateFlags, command: String
    ) throws -> SecAccessControl {
        let protection = protection?.rawValue ?? (kSecAttrAccessibleWhenUnlockedThisDeviceOnly as String)
        return try check(command) { error in
            SecAccessControlCreateWithFlags(nil, protection as CFString, flags, &error)
        }
    }

    /// The private key `selection` names (the first, when several match).
    static func privateKey(_ selection: KeySelection, command: String) throws -> SecKey {
        var query = selection.appleQuery
        query[kSecAttrKeyClass as String] = kSecAttrKeyClassPrivate
        query[kSecReturnRef as String] = true
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        guard status == errSecSuccess else { throw ItemCommandSupport.failure(command, KeychainFailure(KeychainStatus(code: status))) }
        guard let key = found as? SecKey else { throw CLIFailure("\(command): the keychain did not return a key") }
        return key
    }

    /// The public half of `key` (a private key, or a public key itself), as the cryptography module holds it.
    static func publicKey(of key: SecKey, command: String) throws -> AsymmetricKey {
        guard let publicKey = SecKeyCopyPublicKey(key),
            let attributes = SecKeyCopyAttributes(publicKey) as? [String: Any]
        else { throw CLIFailure("\(command): the key has no public key") }
        let bytes = try check(command) { error in SecKeyCopyExternalRepresentation(publicKey, &error) } as Data
        guard let type = (attributes[kSecAttrKeyType as String] as? String).flatMap(Int.init).flatMap(KeyType.init(rawValue:)) else {
            throw CLIFailure("\(command): the key's type is not one Coffer reads")
        }
        do {
            return try AsymmetricKey(externalRepresentation: bytes, type: type, keyClass: .publicKey)
        } catch {
            throw CLIFailure("\(command): the public key cannot be read: \(error.message)")
        }
    }
}
