import Foundation
import KeychainModel
import KeychainOperations
import KeychainService
import Keystore
import TrustedPlatformModule

/// What cofferd answers a user whose keychain its TPM no longer opens (the TPM cleared or replaced, the disk moved,
/// the PCRs it is sealed to changed): every request gets `errSecNotAvailable` with why, except the recovery
/// `coffer keystore recover` sends, which runs here, in the daemon that owns the folder and the TPM. The next
/// connection opens the keychain as usual.
///
/// The user is the one the kernel named at connect; a recovery needs the recovery key, and the passcode when one is
/// set (its attempts counted in the keybag as any other), so no program gains anything by sending one.
struct KeychainRecoveryDesk: Sendable {
    /// The user.
    let uid: UInt32
    /// Why the keychain does not open, for people (no secret, no path).
    let reason: String
    /// A service over the folder, opened on use: it answers the recovery as the embedded keychain does.
    private let service: KeychainService
    /// The folder's path, kept out of what clients are told.
    private let folderPath: String

    init(uid: UInt32, folder: KeychainFolder, tpm: TPMSelection, reason: String) {
        self.uid = uid
        self.reason = reason
        service = KeychainService(folder: folder, tpm: tpm)
        folderPath = folder.url.path
    }

    /// The answer to `request`.
    func answer(_ request: Request) -> Response {
        guard case .deviceKeyBinding(.recover) = request else { return .failure(.notAvailable, reason: reason) }
        let caller = CallerContext(accessGroups: .unrestricted(defaultGroup: CallerContext.embeddedDefaultGroup))
        return InternalPathRedaction.redacting(service.handle(request, caller: caller), folder: folderPath)
    }
}
