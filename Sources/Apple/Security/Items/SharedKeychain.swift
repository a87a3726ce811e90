import KeychainSelection

/// The keychain every function of this module uses: the process's shared client (``SharedKeychainClient``),
/// which `LocalAuthentication` uses too, so that an evaluated `LAContext` serves this module's calls.
enum SharedKeychain {
    /// The client for this call.
    static var client: any KeychainClient { SharedKeychainClient.current }
}
