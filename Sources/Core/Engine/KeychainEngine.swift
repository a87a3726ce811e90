import AuditTrail
import CofferDiagnostics
import Foundation
import Synchronization
import TrustedPlatformModule
import ItemStore
import KeychainModel
import Keystore
import Logging
import Query

/// Runs typed keychain requests against the item store, with the caller's access groups and the
/// keystore's lock state. The only place where a query meets the database.
///
/// Every method is synchronous and safe to call from any thread: the store serialises writers and
/// lets readers run concurrently; the keystore guards its keys with a lock.
public final class KeychainEngine: Sendable {
    /// The keystore (lock state, passcode) this engine uses.
    public let keystore: Keystore
    let store: ItemStore
    let logger = DiagnosticsLevel.logger(label: "coffer.engine")
    let clock: @Sendable () -> Date
    /// The audit journal, once opened (``auditJournal()``).
    let journal = Mutex<AuditJournal?>(nil)
    /// Whether secret reads the journal cannot record are refused, once read from the folder.
    let refusesUnrecorded = Mutex<Bool?>(nil)

    /// Creates an engine over an open keystore and item store.
    public init(keystore: Keystore, store: ItemStore, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.keystore = keystore
        self.store = store
        self.clock = clock
    }

    /// Opens (creating when absent) the keychain in `folder`: keystore first, then the item database. `tpm` is the
    /// TPM its device key is (or will be) sealed by (`COFFER_TPM`'s choice unless given).
    public static func open(
        folder: KeychainFolder, keystoreClock: any KeystoreClock = SystemClock(), tpm: TPMSelection = .fromEnvironment()
    ) throws(KeychainStatus) -> KeychainEngine {
        do {
            return try openExplaining(folder: folder, keystoreClock: keystoreClock, tpm: tpm)
        } catch {
            throw error.status
        }
    }

    /// Opens the keychain in `folder`, or says why it cannot be opened: the status, and the reason for people
    /// (a folder that is a file or another user's, a damaged keybag…), which never holds a secret.
    public static func openExplaining(
        folder: KeychainFolder, keystoreClock: any KeystoreClock = SystemClock(), tpm: TPMSelection = .fromEnvironment()
    ) throws(KeychainFailure) -> KeychainEngine {
        let keystore: Keystore
        do {
            keystore = try Keystore.open(folder: folder, clock: keystoreClock, tpm: tpm)
        } catch {
            DiagnosticsLevel.logger(label: "coffer.engine").notice("cannot open the keystore: \(error)")
            let awaitsRecovery = if case .tpmUnavailable = error { true } else { false }
            throw KeychainFailure(error.status, reason: error.description, awaitsRecovery: awaitsRecovery)
        }
        do {
            let store = try ItemStore(databaseURL: folder.databaseURL, keyring: KeystoreKeyring(keystore: keystore))
            return KeychainEngine(keystore: keystore, store: store)
        } catch {
            DiagnosticsLevel.logger(label: "coffer.engine").notice("cannot open the item database: \(error)")
            throw KeychainFailure(StatusMapping.status(for: error), reason: "cannot open the item database: \(error)")
        }
    }

    /// Runs `body`, turning any lower-layer error into the refusal it stands for (``StatusMapping``).
    func mapped<Result>(duplicateRule: KeychainRule = .a1, _ body: () throws -> Result) throws(EngineRefusal) -> Result {
        do {
            return try body()
        } catch {
            let refusal = StatusMapping.refusal(for: error, duplicateRule: duplicateRule)
            if refusal.status == .internal || refusal.status == .io { logger.error("keychain operation failed: \(error)") }
            throw refusal
        }
    }

    /// Checks rule G1 (a caller with no groups) and G13 (an explicit group outside the caller's list).
    func checkAccess(_ caller: CallerContext, explicitGroup: String?) throws(EngineRefusal) {
        guard caller.hasAnyGroup else { throw .noGroups }
        if let explicitGroup, !caller.mayUse(explicitGroup) { throw .outsideGroups(explicitGroup, .g13) }
    }

    /// A persistent reference for a stored row (of `itemClass`, when the reference names something else the row
    /// stands for: an identity is named by its certificate's row).
    func persistentReference(_ item: StoredItem, as itemClass: ItemClass? = nil) -> PersistentReference {
        let bytes = [UInt8](item.persistentRef)
        let uuid = UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
        return PersistentReference(itemClass: itemClass ?? item.itemClass, uuid: uuid)
    }

    /// `persistentReference(item).data` (the class code, then the row's 16-byte identity), made without the
    /// intermediate values: the audit trail takes one per item an item call touches.
    func persistentReferenceData(_ item: StoredItem) -> Data {
        let code = item.itemClass.rawValue.utf8
        guard item.persistentRef.count == 16, code.count == 4 else { return persistentReference(item).data }
        var data = Data(count: 20)
        data.withUnsafeMutableBytes { out in
            for (index, byte) in code.enumerated() { out[index] = byte }
            item.persistentRef.withUnsafeBytes { identity in out.baseAddress!.advanced(by: 4).copyMemory(from: identity.baseAddress!, byteCount: 16) }
        }
        return data
    }
}
