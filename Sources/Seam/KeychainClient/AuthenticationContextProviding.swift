import Query

/// An authentication context a `SecItem` dictionary may carry under `kSecUseAuthenticationContext`:
/// `LAContext` conforms, so the `Security` module can pass it on without depending on `LocalAuthentication`.
public protocol AuthenticationContextProviding: AnyObject {
    /// The context's identifier and interaction setting, as the keychain reads them.
    var authenticationContextReference: AuthenticationContextReference { get }
}
