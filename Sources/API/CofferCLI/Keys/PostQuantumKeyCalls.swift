import Coffer
import Crypto
import Foundation
import KeychainClient
import Security

/// What `sign`, `verify` and `export-public-key` do with a post-quantum key the keychain keeps (made by
/// `create-key -t ml-dsa-65` and its siblings), which `SecKey` does not have: found by its tag through the Swift API,
/// used inside the keychain.
enum PostQuantumKeyCalls {
    /// The post-quantum key under the selection's tag; nil without a tag or without such a key.
    static func key(_ selection: KeySelection, client: any KeychainClient, command: String) throws -> PostQuantumKey? {
        guard let tag = selection.tag else { return nil }
        let keychain = Keychain(client: client)
        return try blocking(command) { () async throws(KeychainError) in try await keychain.postQuantumKey(tagged: Data(tag.utf8)) }
    }

    /// An ML-DSA signature of `message` made inside the keychain (FIPS 204, empty context); an ML-KEM key refuses.
    static func signature(for message: Data, with key: PostQuantumKey, client: any KeychainClient, command: String) throws -> Data {
        guard !key.kind.isKeyEncapsulation else { throw CLIFailure("\(command): the \(key.kind.rawValue) key under this tag does not sign: it decapsulates") }
        let keychain = Keychain(client: client)
        return try blocking(command) { () async throws(KeychainError) in try await keychain.signature(for: message, with: key) }
    }

    /// Whether `signature` is `key`'s ML-DSA signature of `message` (empty context), checked here with its public key.
    static func isValidSignature(_ signature: Data, for message: Data, by key: PostQuantumKey, command: String) throws -> Bool {
        do {
            switch key.kind {
            case .mldsa65: return try MLDSA65.PublicKey(rawRepresentation: key.publicKey).isValidSignature(signature, for: message)
            case .mldsa87: return try MLDSA87.PublicKey(rawRepresentation: key.publicKey).isValidSignature(signature, for: message)
            case .mlkem768, .mlkem1024:
                throw CLIFailure("\(command): the \(key.kind.rawValue) key under this tag does not sign: it decapsulates")
            }
        } catch let failure as CLIFailure {
            throw failure
        } catch {
            throw CLIFailure("\(command): the key's public key cannot be read")
        }
    }

    /// The key's X.509 SubjectPublicKeyInfo (DER): the algorithm's NIST object identifier with no parameters, as the
    /// IETF's documents for ML-DSA and ML-KEM in X.509 give it, and the public key as FIPS 203 or 204 encodes it.
    static func subjectPublicKeyInfo(of key: PostQuantumKey) -> Data {
        // 2.16.840.1.101.3.4 (NIST algorithms), then 3.18/3.19 (ML-DSA-65/87) or 4.2/4.3 (ML-KEM-768/1024).
        let arc: [UInt8] =
            switch key.kind {
            case .mldsa65: [0x03, 0x12]
            case .mldsa87: [0x03, 0x13]
            case .mlkem768: [0x04, 0x02]
            case .mlkem1024: [0x04, 0x03]
            }
        let identifier = [0x06, 0x09, 0x60, 0x86, 0x48, 0x01, 0x65, 0x03, 0x04] + arc
        let algorithm = DER.element(0x30, Data(identifier))
        let bits = DER.element(0x03, Data([0]) + key.publicKey)
        return DER.element(0x30, algorithm + bits)
    }

    /// Runs `work` and blocks this (main) thread until it ends; its failure as the command's one-line failure.
    private static func blocking<Value: Sendable>(
        _ command: String, _ work: @escaping @Sendable () async throws(KeychainError) -> Value
    ) throws -> Value {
        switch waiting(for: work) {
        case .success(let value): return value
        case .failure(let error): throw CLIFailure("\(command): \(error.status.name) (\(error.status.code)): \(error.localizedDescription)")
        }
    }

    /// Runs `work` and blocks this (main) thread until it ends: for the commands that call the Swift API.
    static func waiting<Value: Sendable>(for work: @escaping @Sendable () async throws(KeychainError) -> Value) -> Result<Value, KeychainError> {
        let box = Outcome<Value>()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(KeychainError) {
                box.result = .success(try await work())
            } catch {
                box.result = .failure(error)
            }
            done.signal()
        }
        done.wait()
        // Set by the task before it signalled.
        return box.result ?? .failure(KeychainError(status: .internal, operation: .copyMatching, reason: "the keychain did not answer"))
    }
}

/// The private key a key command works on: a `SecKey`, or a post-quantum key, which `SecKey` does not have.
enum SelectedKey {
    case secKey(SecKey)
    case postQuantum(PostQuantumKey)

    /// The key `selection` names: a `SecKey` when there is one, else the post-quantum key under its tag; when neither
    /// is there, the `SecKey` search's failure.
    static func find(_ selection: KeySelection, client: any KeychainClient, command: String) throws -> SelectedKey {
        do {
            return .secKey(try KeyCalls.privateKey(selection, command: command))
        } catch {
            guard let key = try PostQuantumKeyCalls.key(selection, client: client, command: command) else { throw error }
            return .postQuantum(key)
        }
    }
}

/// What a waiting command reads once the task it started signalled.
private final class Outcome<Value: Sendable>: @unchecked Sendable {
    // Written by the task before it signals, read by the waiting thread after: the semaphore orders them.
    var result: Result<Value, KeychainError>?
}

/// The two DER encodings a SubjectPublicKeyInfo needs: a tag, a definite length, the contents.
private enum DER {
    static func element(_ tag: UInt8, _ contents: Data) -> Data {
        var encoded = Data([tag])
        let count = contents.count
        if count < 0x80 {
            encoded.append(UInt8(count))
        } else {
            let bytes = withUnsafeBytes(of: UInt32(count).bigEndian) { Array($0) }.drop { $0 == 0 }
            encoded.append(0x80 | UInt8(bytes.count))
            encoded.append(contentsOf: bytes)
        }
        return encoded + contents
    }
}
