// The C spellings of LocalAuthentication's error domain and codes (LAPublicDefines.h), for code that
// compares `NSError.code` with them.

/// ``LAErrorDomain``, as the C macro names it.
public let kLAErrorDomain = LAErrorDomain
/// ``LAError/Code/authenticationFailed``.
public let kLAErrorAuthenticationFailed: Int32 = -1
/// ``LAError/Code/userCancel``.
public let kLAErrorUserCancel: Int32 = -2
/// ``LAError/Code/userFallback``.
public let kLAErrorUserFallback: Int32 = -3
/// ``LAError/Code/systemCancel``.
public let kLAErrorSystemCancel: Int32 = -4
/// ``LAError/Code/passcodeNotSet``.
public let kLAErrorPasscodeNotSet: Int32 = -5
/// ``LAError/Code/biometryNotAvailable``.
public let kLAErrorBiometryNotAvailable: Int32 = -6
/// ``LAError/Code/biometryNotEnrolled``.
public let kLAErrorBiometryNotEnrolled: Int32 = -7
/// ``LAError/Code/biometryLockout``.
public let kLAErrorBiometryLockout: Int32 = -8
/// ``LAError/Code/appCancel``.
public let kLAErrorAppCancel: Int32 = -9
/// ``LAError/Code/invalidContext``.
public let kLAErrorInvalidContext: Int32 = -10
/// ``LAError/Code/companionNotAvailable``.
public let kLAErrorCompanionNotAvailable: Int32 = -11
/// ``LAError/Code/biometryNotPaired``.
public let kLAErrorBiometryNotPaired: Int32 = -12
/// ``LAError/Code/biometryDisconnected``.
public let kLAErrorBiometryDisconnected: Int32 = -13
/// ``LAError/Code/invalidDimensions``.
public let kLAErrorInvalidDimensions: Int32 = -14
/// ``LAError/Code/notInteractive``.
public let kLAErrorNotInteractive: Int32 = -1004
/// The former name of ``kLAErrorBiometryNotAvailable``.
public let kLAErrorTouchIDNotAvailable: Int32 = -6
/// The former name of ``kLAErrorBiometryNotEnrolled``.
public let kLAErrorTouchIDNotEnrolled: Int32 = -7
/// The former name of ``kLAErrorBiometryLockout``.
public let kLAErrorTouchIDLockout: Int32 = -8
/// The former name of ``kLAErrorCompanionNotAvailable``.
public let kLAErrorWatchNotAvailable: Int32 = -11
