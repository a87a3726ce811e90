/// A keychain's state as ``SecKeychainGetStatus(_:_:)`` reports it: a combination of ``kSecUnlockStateStatus``,
/// ``kSecReadPermStatus`` and ``kSecWritePermStatus``.
public typealias SecKeychainStatus = UInt32

/// The keychain is unlocked: items of every protection class can be read and written.
public let kSecUnlockStateStatus: SecKeychainStatus = 1
/// The keychain's files can be read.
public let kSecReadPermStatus: SecKeychainStatus = 2
/// The keychain's files can be written.
public let kSecWritePermStatus: SecKeychainStatus = 4
