import FakeFprintd
import Foundation
import LocalAuthentication
@_spi(Testing) import Security
import Testing
import TestProcesses

#if canImport(Glibc)
import Glibc
#endif

/// Biometric access control end to end, with a fake fprintd on a private system bus: the keychain (the
/// process itself, or the daemon) asks fprintd for a finger; the app only gets the item or a status.
@Suite("Biometric access control through fprintd", .serialized, .timeLimit(.minutes(10)))
struct BiometricAccessControlTests {
    private static let enrolled = ["right-index-finger"]

    /// Runs `body` with the Security calls going to a fresh keychain of `transport` that checks fingers
    /// through the fake fprintd on `bus`.
    private static func withKeychain(_ transport: BoundaryTransport, bus: FakeFprintdBus, _ body: () throws -> Void) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("coffer-biometric-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        switch transport {
        case .embedded:
            try SecurityTesting.withKeychain(
                at: folder.appendingPathComponent("keychain"), environment: ["DBUS_SYSTEM_BUS_ADDRESS": bus.address], body)
        case .daemon:
            let socket = folder.appendingPathComponent("socket").path
            let cofferd = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("cofferd")
            let daemon = try ChildProcess(
                [cofferd.path, "--user", "--socket", socket],
                environment: [
                    "COFFER_HOME": folder.appendingPathComponent("keychain").path, "PATH": "/usr/bin:/bin",
                    "DBUS_SYSTEM_BUS_ADDRESS": bus.address,
                ],
                output: .null, errors: .null)
            defer { _ = daemon.terminate() }
            for _ in 0..<500 where !FileManager.default.fileExists(atPath: socket) { usleep(10_000) }
            try SecurityTesting.withKeychain(socket: socket, body)
        }
    }

    private static func item(_ account: String, _ flags: SecAccessControlCreateFlags) -> [String: Any] {
        let access = SecAccessControlCreateWithFlags(nil, kSecAttrAccessibleWhenUnlocked, flags, nil)!
        return genericPassword(service: "biometric", account: account, data: Data("finger".utf8), [kSecAttrAccessControl as String: access])
    }

    private static func read(_ account: String) -> OSStatus {
        var found: CFTypeRef?
        let status = SecItemCopyMatching(
            genericPasswordSearch(service: "biometric", account: account, [kSecReturnData as String: true]) as CFDictionary, &found)
        if status == errSecSuccess, (found as? Data) != Data("finger".utf8) { return errSecInternalError }
        return status
    }

    @Test(arguments: BoundaryTransport.allCases) func aMatchingFingerOpensTheItemAndANonMatchingOneDoesNot(transport: BoundaryTransport) throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled))
        try Self.withKeychain(transport, bus: bus) {
            #expect(SecItemAdd(Self.item("any", .biometryAny) as CFDictionary, nil) == errSecSuccess)
            try bus.setState(FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-match"]))
            #expect(Self.read("any") == errSecSuccess)
            try bus.setState(FakeFprintdState(enrolled: Self.enrolled, verify: ["verify-no-match"]))
            #expect(Self.read("any") == errSecAuthFailed)
            #expect(bus.calls().filter { $0.hasPrefix("VerifyStart") }.count == 2)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func anEnrollmentChangeLocksCurrentSetItemsButNotAnySetItems(transport: BoundaryTransport) throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: Self.enrolled))
        try Self.withKeychain(transport, bus: bus) {
            #expect(SecItemAdd(Self.item("current", .biometryCurrentSet) as CFDictionary, nil) == errSecSuccess)
            #expect(SecItemAdd(Self.item("any", .biometryAny) as CFDictionary, nil) == errSecSuccess)
            let context = LAContext()
            var error: NSError?
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(context.biometryType == .touchID)
            let before = context.evaluatedPolicyDomainState
            #expect(before != nil)

            try bus.setState(FakeFprintdState(enrolled: Self.enrolled + ["left-thumb"], verify: ["verify-match"]))
            #expect(context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(context.evaluatedPolicyDomainState != before)
            #expect(Self.read("current") == errSecAuthFailed)
            #expect(Self.read("any") == errSecSuccess)
        }
    }

    @Test(arguments: BoundaryTransport.allCases) func withoutEnrolledFingersBiometryIsNotEnrolled(transport: BoundaryTransport) throws {
        let bus = try FakeFprintdBus(state: FakeFprintdState(enrolled: []))
        try Self.withKeychain(transport, bus: bus) {
            let context = LAContext()
            var error: NSError?
            #expect(!context.canEvaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, error: &error))
            #expect(error?.code == LAError.Code.biometryNotEnrolled.rawValue)
            #expect(SecItemAdd(Self.item("current", .biometryCurrentSet) as CFDictionary, nil) == errSecAuthFailed)
        }
    }
}
