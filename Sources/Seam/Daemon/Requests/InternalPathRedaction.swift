import KeychainModel
import KeychainOperations

/// Keeps the daemon's own file paths out of what a client is told.
///
/// Reasons written for the embedded keychain name the file that failed (`cannot open
/// /home/u/.local/share/coffer/keybag: …`), which is the user's own folder. Through the daemon that folder
/// is the daemon's (`/var/lib/coffer/UID/…`): a client learns what went wrong, not where the daemon keeps
/// its files. The daemon's log keeps the full reason.
enum InternalPathRedaction {
    /// What a client is told instead of the keychain folder's path.
    static let placeholder = "the daemon's keychain folder"

    /// `response` with every mention of `folder` (an absolute path) replaced by ``placeholder``.
    static func redacting(_ response: Response, folder: String) -> Response {
        func clean(_ text: String) -> String { text.replacing(folder, with: placeholder) }
        switch response {
        case .failure(let status, let reason):
            return .failure(status, reason: clean(reason))
        case .keystoreError(let error):
            switch error {
            case .io(let reason): return .keystoreError(.io(reason: clean(reason)))
            case .unavailable(let reason): return .keystoreError(.unavailable(reason: clean(reason)))
            case .keybagDamaged(let reason): return .keystoreError(.keybagDamaged(reason: clean(reason)))
            case .deviceKeyDamaged(let reason): return .keystoreError(.deviceKeyDamaged(reason: clean(reason)))
            case .notPermitted(let reason): return .keystoreError(.notPermitted(reason: clean(reason)))
            case .readOnly(let reason): return .keystoreError(.readOnly(reason: clean(reason)))
            case .ownerProofRequired(let reason): return .keystoreError(.ownerProofRequired(reason: clean(reason)))
            case .tpmUnavailable(let reason): return .keystoreError(.tpmUnavailable(reason: clean(reason)))
            default: return response
            }
        default:
            return response
        }
    }
}
