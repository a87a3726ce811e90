import Foundation
import SyncFormat
import Synchronization

/// The device identity background sync opened last, by its sealed setting: each run would otherwise derive its
/// signing and key-agreement keys from the seed again. A new sealed setting (another account joined) replaces it.
final class DeviceIdentityCache: Sendable {
    private let kept = Mutex<(sealed: Data, identity: DeviceIdentity)?>(nil)

    func identity(sealedAs sealed: Data) -> DeviceIdentity? {
        kept.withLock { $0?.sealed == sealed ? $0?.identity : nil }
    }

    func keep(_ identity: DeviceIdentity, sealedAs sealed: Data) {
        kept.withLock { $0 = (sealed, identity) }
    }
}
