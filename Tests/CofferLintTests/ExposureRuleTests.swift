import CofferLint
import Testing

/// Secrets leaving the keychain's protection: printed, logged without privacy, kept in UserDefaults, or written
/// with Foundation's file protection, which Linux does not have.
@Suite struct ExposureRuleTests {
    @Test func aSecretPrintedOrLoggedWithoutPrivacyIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                func load(logger: Logger) -> String? {
                    let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecReturnData as String: true]
                    var result: CFTypeRef?
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, let data = result as? Data else { return nil }
                    let value = String(decoding: data, as: UTF8.self)
                    print("loaded \\(value)")
                    logger.info("value: \\(value, privacy: .public)")
                    return value
                }
                func signIn(password: String, log: OSLog) {
                    debugPrint(password)
                    os_log("signing in with %{public}@", log: log, password)
                }
                """) == ["6 secret-in-log", "7 secret-in-log", "11 secret-in-log", "12 secret-in-log"])
        #expect(
            LintProbe.lines(
                """
                func signIn(password: String, log: OSLog, logger: Logger) {
                    print("password has \\(password.count) characters")
                    if password.isEmpty { print("no password") }
                    logger.info("signing in with \\(password, privacy: .private)")
                    os_log("signing in with %@", log: log, password)
                    print("passwordLength", passwordLength)
                }
                """
            ).isEmpty)
    }

    @Test func aSecretInUserDefaultsIsFlagged() {
        #expect(
            LintProbe.lines(
                """
                struct Session {
                    @AppStorage("authToken") var stored = ""
                    func keep(_ refreshToken: String, entered: String, defaults: UserDefaults) {
                        UserDefaults.standard.set(refreshToken, forKey: "refresh")
                        defaults.set(entered, forKey: "password")
                    }
                }
                """) == ["2 secret-in-user-defaults", "4 secret-in-user-defaults", "5 secret-in-user-defaults"])
        #expect(
            LintProbe.lines(
                """
                struct Settings {
                    @AppStorage("theme") var theme = "dark"
                    func keep(_ count: Int) { UserDefaults.standard.set(count, forKey: "launches") }
                }
                """
            ).isEmpty)
    }

    @Test func foundationsFileProtectionIsFlaggedAndCoffersIsNot() {
        #expect(
            LintProbe.lines(
                """
                func save(_ data: Data, to url: URL) throws {
                    try data.write(to: url, options: [.atomic, .completeFileProtection])
                    try FileManager.default.setAttributes([.protectionKey: FileProtectionType.complete], ofItemAtPath: url.path)
                }
                """) == ["2 file-protection-on-linux", "3 file-protection-on-linux"])
        #expect(
            LintProbe.lines(
                """
                func save(_ data: Data, to url: URL) throws {
                    try ProtectedFile.write(data, to: url, options: [.atomic, .completeFileProtection])
                    precondition(try ProtectedFile.protection(of: url) == FileProtectionType.complete)
                }
                """
            ).isEmpty)
    }
}
