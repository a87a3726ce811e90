import Foundation

/// Where ``LAContext/canEvaluatePolicy(_:error:)`` stores its error: pass `&error` for a `var error: NSError?`,
/// or nil. Foundation on Linux has no `NSErrorPointer`; this is the Swift shape of Apple's `NSError **`.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
