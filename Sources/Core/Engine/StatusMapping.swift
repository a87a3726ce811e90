import ItemStore
import KeychainModel
import Keystore
import Query

/// The one place that turns lower-layer errors into Apple statuses, and into the engine's refusals with their
/// reasons (the store's and the keystore's messages, which name rows, tables and classes, never values).
enum StatusMapping {
    static func status(for error: any Error) -> KeychainStatus {
        switch error {
        case let refusal as EngineRefusal: refusal.status
        case let status as KeychainStatus: status
        case let keystore as KeystoreError: keystore.status
        case let store as ItemStoreError: status(for: store)
        default: .internal
        }
    }

    /// The refusal `error` stands for; a duplicate primary key is refused under `duplicateRule` (A1 for an add,
    /// U10 for an update).
    static func refusal(for error: any Error, duplicateRule: KeychainRule = .a1) -> EngineRefusal {
        switch error {
        case let refusal as EngineRefusal: return refusal
        case let status as KeychainStatus: return EngineRefusal(status)
        case KeystoreError.classUnavailable:
            return EngineRefusal(.interactionNotAllowed, .g16, "the item's protection class is locked")
        case let keystore as KeystoreError: return EngineRefusal(keystore.status, nil, keystore.description)
        case ItemStoreError.duplicateItem:
            return EngineRefusal(.duplicateItem, duplicateRule, "another item of the class has the same primary key")
        case let store as ItemStoreError: return EngineRefusal(status(for: store), nil, store.description)
        default: return EngineRefusal(.internal, nil, "the keychain failed: \(type(of: error))")
        }
    }

    static func status(for error: ItemStoreError) -> KeychainStatus {
        switch error {
        case .duplicateItem, .duplicatePersistentRef: .duplicateItem
        case .corrupt: .decode
        case .notFound: .itemNotFound
        case .unsupportedClass: .unimplemented
        case .unknownAttribute: .noSuchAttribute
        case .invalidArgument: .param
        case .io: .io
        case .readOnly: .readOnly
        }
    }

    /// Whether an error means "this row cannot be read because its class key is locked away"
    /// (as opposed to a corrupt row).
    static func isLocked(_ error: any Error) -> Bool {
        if case .classUnavailable = error as? KeystoreError { return true }
        return false
    }

    /// Whether an error means the row is unreadable for good: corrupt, or its class key is destroyed (§10.7, §4.3).
    static func isUndecryptable(_ error: any Error) -> Bool {
        switch error {
        case ItemStoreError.corrupt: true
        case KeystoreError.wrappedKeyCorrupt, KeystoreError.classMissing: true
        case let refusal as EngineRefusal: refusal.status == .decode
        case is KeychainStatus: (error as? KeychainStatus) == .decode
        default: false
        }
    }
}
