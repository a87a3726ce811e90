import Foundation

// On Apple platforms a `CFString` and a `String` with the same characters are one `AnyHashable`, and so are a
// `CFBoolean` and the `Bool`; swift-corelibs-foundation keeps them apart. `NSDictionary.isEqual(to:)` compares
// values as `AnyHashable`s, and `NSDictionary(dictionary:)` turns the `NSString`s it is given into `String`s, so
// without these two conformances a query built from `kSecClassGenericPassword` or `kCFBooleanTrue` is not equal
// to itself once one side went through `NSDictionary` (the check wrappers such as SimpleKeychain make in their
// tests). They give the two classes Apple's `AnyHashable` identity, for every caller in the process.

extension NSString: @retroactive _HasCustomAnyHashableRepresentation {
    /// The string as a Swift `String`, as Apple's Foundation hashes an `NSString`.
    public func _toCustomAnyHashable() -> AnyHashable? {
        AnyHashable(String._unconditionallyBridgeFromObjectiveC(self))
    }
}

extension NSNumber: @retroactive _HasCustomAnyHashableRepresentation {
    /// `kCFBooleanTrue` and `kCFBooleanFalse` (Foundation's only boolean numbers) as the `Bool`, as Apple's
    /// Foundation hashes a `CFBoolean`; nil (Foundation's own identity) for every other number.
    public func _toCustomAnyHashable() -> AnyHashable? {
        if self === kCFBooleanTrue { return AnyHashable(true) }
        if self === kCFBooleanFalse { return AnyHashable(false) }
        return nil
    }
}
