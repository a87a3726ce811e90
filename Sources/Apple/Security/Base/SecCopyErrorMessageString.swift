import Foundation
import KeychainModel

/// A sentence describing `status`, in Coffer's words: what went wrong and, where it helps, what to do.
///
/// Statuses the keychain uses have an explanation; other `errSec…` codes give their name; unknown codes
/// give `OSStatus N`. Never nil.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    let known = KeychainStatus(code: status)
    if KeychainStatus.allKnown.contains(known) { return NSString(string: known.explanation) }
    if let name = securityStatusNames[status] { return NSString(string: "Security framework error \(name) (\(status)).") }
    return NSString(string: "OSStatus \(status)")
}
