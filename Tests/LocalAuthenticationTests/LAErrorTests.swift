import Foundation
import LocalAuthentication
import Testing

/// `LAError` in the shapes client code written for Apple's platforms relies on.
@Suite("LAError", .timeLimit(.minutes(10)))
struct LAErrorTests {
    /// An error as a reply block receives it.
    private func replied(_ code: LAError.Code) -> (any Error)? {
        LAError(code, userInfo: [NSLocalizedDescriptionKey: "Canceled by user."])
    }

    @Test func codesHaveApplesRawValues() {
        let expected: [(LAError.Code, Int)] = [
            (.authenticationFailed, -1), (.userCancel, -2), (.userFallback, -3), (.systemCancel, -4), (.passcodeNotSet, -5),
            (.biometryNotAvailable, -6), (.biometryNotEnrolled, -7), (.biometryLockout, -8), (.appCancel, -9),
            (.invalidContext, -10), (.companionNotAvailable, -11), (.biometryNotPaired, -12), (.biometryDisconnected, -13),
            (.invalidDimensions, -14), (.notInteractive, -1004),
        ]
        for (code, raw) in expected { #expect(code.rawValue == raw) }
        #expect(LAError.userCancel == .userCancel)
        #expect(LAError.notInteractive.rawValue == -1004)
        #expect(kLAErrorUserCancel == -2)
        #expect(kLAErrorNotInteractive == -1004)
        #expect(kLAErrorBiometryNotEnrolled == Int32(LAError.Code.biometryNotEnrolled.rawValue))
    }

    @Test func theDomainIsApples() {
        #expect(LAErrorDomain == "com.apple.LocalAuthentication")
        #expect(LAError.errorDomain == LAErrorDomain)
        #expect(kLAErrorDomain == LAErrorDomain)
    }

    @Test func aRepliedErrorBridgesToNSError() throws {
        let error = try #require(replied(.userCancel))
        let bridged = error as NSError
        #expect(bridged.domain == LAErrorDomain)
        #expect(bridged.code == LAError.Code.userCancel.rawValue)
        #expect(bridged.localizedDescription == "Canceled by user.")
        #expect(error.localizedDescription == "Canceled by user.")
    }

    @Test func aRepliedErrorCastsToLAError() throws {
        let error = try #require(replied(.userCancel) as? LAError)
        #expect(error.code == .userCancel)
        #expect(error.errorCode == -2)
        #expect(error.errorUserInfo[NSLocalizedDescriptionKey] as? String == "Canceled by user.")
        switch error.code {
        case .userCancel: break
        default: Issue.record("switch on the code missed userCancel")
        }
    }

    @Test func catchPatternsMatchTheCode() {
        func outcome(_ thrown: any Error) -> String {
            do {
                throw thrown
            } catch LAError.userCancel {
                return "cancel"
            } catch LAError.notInteractive {
                return "not interactive"
            } catch {
                return "other"
            }
        }
        #expect(outcome(LAError(.userCancel)) == "cancel")
        #expect(outcome(LAError(.notInteractive)) == "not interactive")
        #expect(outcome(LAError(.authenticationFailed)) == "other")
        #expect(outcome(CocoaError(.fileNoSuchFile)) == "other")
        // An NSError of LocalAuthentication's domain, made by hand, matches too.
        #expect(outcome(NSError(domain: LAErrorDomain, code: -2)) == "cancel")
        #expect(outcome(NSError(domain: "elsewhere", code: -2)) == "other")
    }

    @Test func anNSErrorOfTheDomainConvertsBack() {
        let error = LAError(_nsError: NSError(domain: LAErrorDomain, code: -7, userInfo: [:]))
        #expect(error.code == .biometryNotEnrolled)
        #expect(error == LAError(.biometryNotEnrolled))
        #expect(error != LAError(.biometryNotAvailable))
    }
}
