import KeychainModel
import Query

/// Makes an access control for `protection` (a `kSecAttrAccessible…` value) requiring `flags`.
///
/// Returns nil and sets `error` (domain ``kCFErrorDomainOSStatus``, code ``errSecParam``) when Apple
/// refuses the combination (reference §6.1): `or` with `and`, `biometryAny` with `biometryCurrentSet`,
/// `userPresence` with anything but `applicationPassword`/`privateKeyUsage`, or a protection that is
/// not a keychain protection class.
@discardableResult
public func SecAccessControlCreateWithFlags(
    _ allocator: CFAllocator?, _ protection: CFTypeRef, _ flags: SecAccessControlCreateFlags,
    _ errorOut: UnsafeMutablePointer<Unmanaged<CFError>?>?
) -> SecAccessControl? {
    let protectionValue = ValueBridge.value(of: protection)
    do throws(QueryRejection) {
        guard case .string(let name) = protectionValue else {
            throw QueryRejection(status: .param, rule: nil, key: nil, reason: "the protection is not a string but \(protectionValue.typeName)")
        }
        let control = try AccessControl.create(protection: name, flags: AccessControlFlags(rawValue: UInt64(flags.rawValue)))
        Diagnostics.log("SecAccessControlCreateWithFlags(\(name), \(flags))", status: .success)
        return SecAccessControl(control)
    } catch {
        let call = "SecAccessControlCreateWithFlags refused protection \(Diagnostics.render(protectionValue)) with flags \(flags)"
        Diagnostics.log(call, status: error.status, reason: error.message)
        error.status.report("\(call) (\(error.message))", to: errorOut)
        return nil
    }
}

/// The type identifier of ``SecAccessControl``, for comparison with ``CFGetTypeID(_:)``.
public func SecAccessControlGetTypeID() -> CFTypeID { TypeIdentifier.accessControl.rawValue }
