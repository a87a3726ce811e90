import Engine
import Foundation
import KeychainModel
import Keystore
import Logging
import Query
import Synchronization

/// The keychain in this process: the engine over the files in one keychain folder.
///
/// The keychain is opened on first use, once; a failed open is retried on the next call. Access
/// groups come from the caller context (`COFFER_ACCESS_GROUPS` in embedded mode).
public final class EmbeddedKeychain: KeychainClient {
    /// The keychain folder.
    public let folder: KeychainFolder
    /// The caller's access groups.
    public let caller: CallerContext
    private let opened = Mutex<KeychainEngine?>(nil)

    /// A keychain in `folder` for `caller`.
    public init(folder: KeychainFolder, caller: CallerContext) {
        self.folder = folder
        self.caller = caller
    }

    /// An open engine over this keychain's files (opening them on first use).
    public func engine() throws(KeychainStatus) -> KeychainEngine {
        try opened.withLock { (engine: inout KeychainEngine?) throws(KeychainStatus) -> KeychainEngine in
            if let engine { return engine }
            let fresh = try KeychainEngine.open(folder: folder)
            engine = fresh
            return fresh
        }
    }

    public func add(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try engine().add(QueryRejection.statusOnly(QueryParser.parseAdd(query)), caller: caller)
    }

    public func copyMatching(_ query: QueryDictionary) throws(KeychainStatus) -> KeychainValue? {
        try engine().copyMatching(QueryRejection.statusOnly(QueryParser.parseSearch(query)), caller: caller)
    }

    public func update(_ query: QueryDictionary, attributesToUpdate: QueryDictionary) throws(KeychainStatus) {
        try engine().update(
            QueryRejection.statusOnly(QueryParser.parseUpdate(query: query, attributesToUpdate: attributesToUpdate)),
            caller: caller)
    }

    public func delete(_ query: QueryDictionary) throws(KeychainStatus) {
        try engine().delete(QueryRejection.statusOnly(QueryParser.parseDelete(query)), caller: caller)
    }

    public func lockStatus() throws(KeystoreError) -> KeystoreStatus {
        try keystore().status()
    }

    public func unlock(passcode: SecretBytes) throws(KeystoreError) {
        try keystore().unlock(passcode: passcode)
    }

    public func lock() throws(KeystoreError) {
        try keystore().lock()
    }

    public func setPasscode(_ passcode: SecretBytes) throws(KeystoreError) {
        try keystore().setPasscode(passcode, kdf: .forNewPasscodes)
    }

    public func changePasscode(from old: SecretBytes, to new: SecretBytes) throws(KeystoreError) {
        try keystore().changePasscode(from: old, to: new, kdf: .forNewPasscodes)
    }

    public func removePasscode(current: SecretBytes) throws(KeystoreError) {
        try keystore().removePasscode(current: current)
    }

    public func setEraseAfterFailedAttempts(_ enabled: Bool, passcode: SecretBytes) throws(KeystoreError) {
        try keystore().setEraseAfterFailedAttempts(enabled, passcode: passcode)
    }

    private func keystore() throws(KeystoreError) -> Keystore {
        do {
            return try engine().keystore
        } catch {
            // Re-open the keystore alone to report the precise reason (damaged keybag, …).
            return try Keystore.open(folder: folder)
        }
    }
}
