import DaemonProtocol
import Engine
import Foundation
import KeychainClient
import KeychainModel
import Keystore
import Query

/// Answers one caller's requests against its user's keychain, with the access groups of its program.
/// Item requests go through the same parser and engine as the embedded keychain, so statuses are identical.
struct RequestHandler {
    let keychain: UserKeychain
    let executable: ExecutableIdentity

    func handle(_ request: Request) -> Response {
        keychain.touch()
        let engine = keychain.engine
        let caller = keychain.caller(for: executable)
        switch request {
        case .add(let query):
            return item { () throws(KeychainStatus) in
                try engine.add(QueryRejection.statusOnly(QueryParser.parseAdd(query)), caller: caller)
            }
        case .copyMatching(let query):
            return item { () throws(KeychainStatus) in
                try engine.copyMatching(QueryRejection.statusOnly(QueryParser.parseSearch(query)), caller: caller)
            }
        case .update(let query, let attributes):
            return item { () throws(KeychainStatus) in
                try engine.update(
                    QueryRejection.statusOnly(QueryParser.parseUpdate(query: query, attributesToUpdate: attributes)),
                    caller: caller)
                return nil
            }
        case .delete(let query):
            return item { () throws(KeychainStatus) in
                try engine.delete(QueryRejection.statusOnly(QueryParser.parseDelete(query)), caller: caller)
                return nil
            }
        case .lockStatus:
            return keystore { () throws(KeystoreError) in .lockStatus(WireKeystoreStatus(try engine.keystore.status())) }
        case .unlock(var passcode):
            defer { passcode.zeroize() }
            let secret = SecretBytes(copying: passcode.bytes)
            return keystore { () throws(KeystoreError) in
                try engine.keystore.unlock(passcode: secret)
                return .status(.success)
            }
        case .lock:
            engine.keystore.lock()
            return .status(.success)
        case .setPasscode(var new):
            defer { new.zeroize() }
            let secret = SecretBytes(copying: new.bytes)
            return keystore { () throws(KeystoreError) in
                try engine.keystore.setPasscode(secret, kdf: .forNewPasscodes)
                return .status(.success)
            }
        case .changePasscode(var old, var new):
            defer { old.zeroize(); new.zeroize() }
            let (oldSecret, newSecret) = (SecretBytes(copying: old.bytes), SecretBytes(copying: new.bytes))
            return keystore { () throws(KeystoreError) in
                try engine.keystore.changePasscode(from: oldSecret, to: newSecret, kdf: .forNewPasscodes)
                return .status(.success)
            }
        case .removePasscode(var current):
            defer { current.zeroize() }
            let secret = SecretBytes(copying: current.bytes)
            return keystore { () throws(KeystoreError) in
                try engine.keystore.removePasscode(current: secret)
                return .status(.success)
            }
        case .setEraseAfterFailedAttempts(let enabled, var passcode):
            defer { passcode.zeroize() }
            let secret = SecretBytes(copying: passcode.bytes)
            return keystore { () throws(KeystoreError) in
                try engine.keystore.setEraseAfterFailedAttempts(enabled, passcode: secret)
                return .status(.success)
            }
        case .appsList:
            return .apps(keychain.apps.map(\.wire))
        case .appsAdd(let registration, var passcode):
            defer { passcode.zeroize() }
            if let refusal = verifyOwner(passcode) { return refusal }
            return registry { registry in
                registry.register(RegisteredApp(
                    path: registration.executablePath, appID: registration.applicationIdentifier,
                    groups: registration.accessGroups,
                    pinnedSHA256: registration.pinsExecutableHash ? try Self.hash(of: registration.executablePath) : nil))
            }
        case .appsRemove(let selector, var passcode):
            defer { passcode.zeroize() }
            if let refusal = verifyOwner(passcode) { return refusal }
            return registry { registry in
                switch selector {
                case .executablePath(let path): registry.remove(path)
                case .applicationIdentifier(let appID): registry.remove(appID)
                }
            }
        }
    }

    /// Registry edits need the keychain passcode, verified (and counted) like an unlock, so that a
    /// program of the user cannot grant itself another program's groups. Without a passcode there is
    /// nothing only the user knows, and edits are refused.
    private func verifyOwner(_ passcode: PasscodeBytes) -> Response? {
        let keystore = keychain.engine.keystore
        guard keystore.isPasscodeSet else { return .keystoreError(.noPasscodeSet) }
        do {
            try keystore.unlock(passcode: SecretBytes(copying: passcode.bytes))
            return nil
        } catch {
            return .keystoreError(WireKeystoreError(error))
        }
    }

    private func item(_ call: () throws(KeychainStatus) -> KeychainValue?) -> Response {
        do {
            return .value(try call())
        } catch {
            return .status(error)
        }
    }

    private func keystore(_ call: () throws(KeystoreError) -> Response) -> Response {
        do {
            return try call()
        } catch {
            return .keystoreError(WireKeystoreError(error))
        }
    }

    private func registry(_ change: (inout AppRegistry) throws -> Void) -> Response {
        do {
            var failure: (any Error)?
            try keychain.changeRegistry { registry in
                do { try change(&registry) } catch { failure = error }
            }
            if failure != nil { return .status(.param) }
            return .apps(keychain.apps.map(\.wire))
        } catch {
            return .status(.io)
        }
    }

    /// The SHA-256 of the file at `path`, for pinning.
    private static func hash(of path: String) throws -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw DaemonError.system("open \(path)", errno) }
        defer { close(descriptor) }
        return try ExecutableIdentifier.sha256(of: descriptor)
    }
}

extension RegisteredApp {
    /// The wire form for `coffer apps list`.
    var wire: DaemonProtocol.RegisteredApp {
        DaemonProtocol.RegisteredApp(
            executablePath: path, applicationIdentifier: appID, accessGroups: groups,
            executableHash: pinnedSHA256.map { hex in
                stride(from: 0, to: hex.count, by: 2).compactMap { offset in
                    let start = hex.index(hex.startIndex, offsetBy: offset)
                    return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                }
            })
    }
}
