import Foundation

/// The boolean `true` (`CFBoolean!`, as Apple declares it, so both `kCFBooleanTrue` and `kCFBooleanTrue!` compile).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// The boolean `false`.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)

/// The value of a ``CFBoolean``.
public func CFBooleanGetValue(_ boolean: CFBoolean!) -> Bool {
    boolean.boolValue
}
