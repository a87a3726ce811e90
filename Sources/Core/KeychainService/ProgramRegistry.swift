import KeychainModel
import KeychainOperations

/// The registry of programs and their access groups, which the daemon keeps per user (Coffer's
/// counterpart of entitlements). ``KeychainService`` verifies the passcode before an edit, then asks
/// the registry; the embedded keychain has no registry.
public protocol ProgramRegistry: Sendable {
    /// The registered programs, as listed to the user.
    var registeredApps: [RegisteredApp] { get }
    /// Adds or replaces the entry for `registration`'s executable, durably.
    func register(_ registration: AppRegistration) throws(KeychainFailure)
    /// Removes the entries `selector` names, durably.
    func remove(_ selector: AppSelector) throws(KeychainFailure)
}
