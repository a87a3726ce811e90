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
        let outcome = PostQuantumCreation()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(KeychainError) {
                outcome.result = .success(try await keychain.generatePostQuantumKey(kind, tag: tagData, label: label, accessControl: control))
            } catch {
                outcome.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        switch outcome.result {
        case .success(let key)?:
            print("created \(kind.rawValue) key, tag \(tag ?? ""), protection \(control.protection.rawValue)")
            print("public key: \(key.publicKey.base64EncodedString())")
        case .failure(let error)?:
            throw CLIFailure("create-key: \(error.status.code) \(error.localizedDescription)")
        case nil:
            throw CLIFailure("create-key: the key was not made")
        }
    }
}

/// The outcome a waiting `create-key` reads once the task that made the key signalled.
private final class PostQuantumCreation: @unchecked Sendable {
    // Written by the task before it signals, read by the waiting thread after: the semaphore orders them.
    var result: Result<PostQuantumKey, KeychainError>?
}
