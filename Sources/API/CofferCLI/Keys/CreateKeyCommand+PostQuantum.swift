import Coffer
import Foundation
import KeychainClient
import Security

extension CreateKeyCommand {
    /// Makes a post-quantum key through the Swift API and prints what it is and its public key (base64).
    func createPostQuantumKey(_ kind: PostQuantumKey.Kind, client: any KeychainClient) throws {
        let keychain = Keychain(client: client)
        let flags = accessControl.map { AccessControlFlags(rawValue: UInt64($0.flags.rawValue)) } ?? []
        let protectionClass = protection.flatMap { ProtectionClass(rawValue: $0.rawValue) } ?? .afterFirstUnlockThisDeviceOnly
        let control = AccessControl(protection: protectionClass, flags: flags)
        let (tagData, label) = (Data((tag ?? "").utf8), self.label)
        let outcome = PostQuantumKeyCalls.waiting { () async throws(KeychainError) in
            try await keychain.generatePostQuantumKey(kind, tag: tagData, label: label, accessControl: control)
        }
        switch outcome {
        case .success(let key):
            print("created \(kind.rawValue) key, tag \(tag ?? ""), protection \(control.protection.rawValue)")
            print("public key: \(key.publicKey.base64EncodedString())")
        case .failure(let error):
            throw CLIFailure("create-key: \(error.status.code) \(error.localizedDescription)")
        }
    }
}
