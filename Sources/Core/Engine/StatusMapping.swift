import ItemStore
import KeychainModel
import Keystore

/// The one place that turns lower-layer errors into Apple statuses.
enum StatusMapping {
    static func status(for error: any Error) -> KeychainStatus {
        switch error {
        case let status as KeychainStatus: status
        case let keystore as KeystoreError: keystore.status
        case let store as ItemStoreError: status(for: store)
        default: .internal
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
        case is KeychainStatus: (error as? KeychainStatus) == .decode
        default: false
        }
    }
}
