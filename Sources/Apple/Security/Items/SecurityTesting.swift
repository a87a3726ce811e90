import Foundation
import KeychainSelection

/// Hooks for tests of code that uses this module. Not part of Apple's API.
@_spi(Testing) public enum SecurityTesting {
    /// Runs `body` with every call of this module on the current task (and its child tasks) going to the
    /// embedded keychain in `folder`, opened afresh, instead of the process-wide keychain.
    ///
    /// Tests that run in parallel can each use a keychain of their own this way. `accessGroups` plays the
    /// part of `COFFER_ACCESS_GROUPS` (comma-separated; first = default for add; nil = unrestricted).
    ///
    /// The choice is a task-local value: it reaches child tasks (`async let`, task groups) but not threads
    /// started otherwise (`Thread`, `DispatchQueue`), whose calls go to the process-wide keychain.
    ///
    /// `environment` adds to it what else the embedded keychain reads, such as `COFFER_PINENTRY` (the
    /// program it asks the person with).
    public static func withKeychain<Result>(
        at folder: URL, accessGroups: String? = nil, environment extra: [String: String] = [:], _ body: () throws -> Result
    ) rethrows -> Result {
        var environment = extra.merging(["COFFER_HOME": folder.path]) { _, new in new }
        environment["COFFER_ACCESS_GROUPS"] = accessGroups
        return try SharedKeychainClient.$taskClient.withValue(KeychainLocation.client(environment: environment), operation: body)
    }

    /// Runs `body` with the keychain behind the daemon listening at `socket` (as `COFFER_SOCKET` selects).
    public static func withKeychain<Result>(socket: String, _ body: () throws -> Result) rethrows -> Result {
        try SharedKeychainClient.$taskClient.withValue(KeychainLocation.client(environment: ["COFFER_SOCKET": socket]), operation: body)
    }

    /// The `async` form of ``withKeychain(at:accessGroups:_:)``.
    public static func withKeychain<Result>(
        at folder: URL, accessGroups: String? = nil, _ body: () async throws -> Result
    ) async rethrows -> Result {
        var environment = ["COFFER_HOME": folder.path]
        environment["COFFER_ACCESS_GROUPS"] = accessGroups
        return try await SharedKeychainClient.$taskClient.withValue(KeychainLocation.client(environment: environment), operation: body)
    }
}
