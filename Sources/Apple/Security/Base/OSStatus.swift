/// A result code: zero for success, an `errSec…` value otherwise.
public typealias OSStatus = Int32

/// No error (`0`), the classic Mac OS spelling of ``errSecSuccess``.
public let noErr: OSStatus = 0
