import Foundation

/// `SecAccessRef`: macOS's legacy access object, the list of applications that may use an item without
/// asking, which code passes as `kSecAttrAccess` when it adds an item to the file keychain.
///
/// Coffer keeps one keychain in which items are kept apart by access group, as macOS's data-protection
/// keychain keeps them; like that keychain, it drops a `SecAccess` given with an item
/// (see docs/MacOSBranch.md). The object holds the descriptor and the list it was made with, nothing secret.
public final class SecAccess: Sendable, CustomStringConvertible {
    /// The name macOS shows when it asks whether an application may use the item.
    let descriptor: String
    /// How many trusted applications the caller listed; nil for "the calling application only".
    let trustedApplicationCount: Int?

    init(descriptor: String, trustedApplicationCount: Int?) {
        self.descriptor = descriptor
        self.trustedApplicationCount = trustedApplicationCount
    }

    /// `<SecAccess "descriptor">`.
    public var description: String { "<SecAccess \"\(descriptor)\">" }
}

/// The legacy spelling of ``SecAccess``.
public typealias SecAccessRef = SecAccess

/// The type identifier of ``SecAccess``, for comparison with ``CFGetTypeID(_:)``.
public func SecAccessGetTypeID() -> CFTypeID { TypeIdentifier.access.rawValue }

/// Creates a legacy access object (`SecAccessCreate`): `descriptor` names the item in macOS's prompts,
/// `trustedlist` lists the applications that may use it (nil: the calling application). Always
/// ``errSecSuccess``; what an item added with it gets is described on ``SecAccess``.
@discardableResult
public func SecAccessCreate(
    _ descriptor: CFString, _ trustedlist: CFArray?, _ accessRef: UnsafeMutablePointer<SecAccess?>
) -> OSStatus {
    accessRef.pointee = SecAccess(descriptor: String(descriptor), trustedApplicationCount: trustedlist?.count)
    Diagnostics.log("SecAccessCreate", status: .success)
    return errSecSuccess
}
