import CCofferSystem
import Foundation
import KeychainClient
import KeychainModel
import Query

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What the legacy password calls share: turning their C arguments into a `SecItem…` dictionary, running
/// it through the same client calls `SecItemAdd` and the others use, and handing secrets back in memory
/// the caller frees with ``SecKeychainItemFreeContent(_:_:)``.
enum LegacyPasswordCall {
    /// Runs one call against the keychain: its error as an `OSStatus`, one diagnostics line. `call` renders
    /// its dictionary with `Diagnostics.render`, which shows every secret by its length only.
    static func run(
        _ call: @autoclosure () -> String, _ body: (any KeychainClient) throws(KeychainFailure) -> Void
    ) -> OSStatus {
        do {
            try body(SharedKeychain.client)
            Diagnostics.log(call(), status: .success)
            return errSecSuccess
        } catch {
            Diagnostics.log(call(), status: error.status, reason: error.reason)
            return error.status.code
        }
    }

    /// Logs a call refused before it reached the keychain, and returns its status.
    static func refuse(_ call: String, _ status: KeychainStatus, reason: String) -> OSStatus {
        Diagnostics.log(call, status: status, reason: reason)
        return status.code
    }

    /// A string argument (`length` bytes at `pointer`, not necessarily NUL-terminated) as an attribute
    /// value: text when the bytes are UTF-8, else data (the keychain compares both by their bytes). Nil
    /// when the pointer is nil or the length is zero, which Apple's calls treat as "not given".
    static func text(_ pointer: UnsafePointer<CChar>?, _ length: UInt32) -> KeychainValue? {
        guard let pointer, length > 0 else { return nil }
        let bytes = UnsafeRawBufferPointer(start: pointer, count: Int(length))
        if let text = String(validating: bytes, as: UTF8.self) { return .string(text) }
        return .data(Data(bytes))
    }

    /// A copy of the caller's password in memory this module owns and overwrites with zeros when the
    /// last reference to it goes (the keychain client may keep the value until the request is sent).
    static func secret(_ pointer: UnsafeRawPointer, count: UInt32) -> Data {
        let count = Int(count)
        guard count > 0, let copy = malloc(count) else { return Data() }
        copy.copyMemory(from: pointer, byteCount: count)
        return Data(
            bytesNoCopy: copy, count: count,
            deallocator: .custom { bytes, count in
                UnsafeMutableRawBufferPointer(start: bytes, count: count).zeroize()
                free(bytes)
            })
    }

    /// A `malloc`ed copy of `secret` for the caller, who frees it with ``SecKeychainItemFreeContent(_:_:)``
    /// (or `free`). Never nil, even for an empty password, so that `Data(bytes:count:)` on it is safe.
    static func handOut(_ secret: Data) -> UnsafeMutableRawPointer? {
        guard let copy = malloc(Swift.max(secret.count, 1)) else { return nil }
        secret.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { copy.copyMemory(from: base, byteCount: bytes.count) }
        }
        return copy
    }

    /// Frees memory ``handOut(_:)`` returned, zeroing it first (all of the allocation `malloc` gave).
    static func release(_ pointer: UnsafeMutableRawPointer) {
        UnsafeMutableRawBufferPointer(start: pointer, count: coffer_allocation_size(pointer)).zeroize()
        free(pointer)
    }

    /// `keychainOrArray` as Apple's find calls check it: nil, a ``SecKeychain``, or an array of them
    /// (empty: nothing to search). Anything else is ``errSecParam``; an array element that is not a
    /// keychain is ``errSecInvalidKeychain``.
    enum SearchList {
        case keychain
        case nothing
        case refused(KeychainStatus, String)

        init(_ keychainOrArray: CFTypeRef?) {
            guard let keychainOrArray else { self = .keychain; return }
            if keychainOrArray is SecKeychain { self = .keychain; return }
            guard let array = keychainOrArray as? NSArray else {
                self = .refused(.param, "keychainOrArray is neither a SecKeychain nor an array of them")
                return
            }
            guard array.allSatisfy({ $0 is SecKeychain }) else {
                self = .refused(KeychainStatus(code: errSecInvalidKeychain), "keychainOrArray holds something that is not a SecKeychain")
                return
            }
            self = array.count == 0 ? .nothing : .keychain
        }
    }

    /// Finds the first item of `search` and hands out what the caller asked for: the password's length
    /// and a copy of its bytes, and the item. Out-parameters are written only on success.
    static func find(
        _ name: String, _ search: QueryDictionary, keychainOrArray: CFTypeRef?,
        passwordLength: UnsafeMutablePointer<UInt32>?, passwordData: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
        itemRef: UnsafeMutablePointer<SecKeychainItem?>?, itemClass: ItemClass
    ) -> OSStatus {
        var query = search
        query[QueryKey.itemClass] = .string(itemClass.rawValue)
        let call = "\(name)(\(Diagnostics.render(query)))"
        switch SearchList(keychainOrArray) {
        case .keychain: break
        case .nothing: return refuse(call, .itemNotFound, reason: "keychainOrArray is an empty array: no keychain to search")
        case .refused(let status, let reason): return refuse(call, status, reason: reason)
        }
        let wantsData = passwordLength != nil || passwordData != nil
        let wantsItem = itemRef != nil
        if wantsData { query[QueryKey.returnData] = .bool(true) }
        if wantsItem { query[QueryKey.returnPersistentRef] = .bool(true) }
        var secret = Data()
        var reference: Data?
        let status = run(call) { client throws(KeychainFailure) in
            var result = try client.blocking.copyMatching(query)
            switch (wantsData, wantsItem, result) {
            case (true, true, .dictionary(let found)?):
                secret = found[QueryKey.valueData]?.dataValue ?? Data()
                reference = found[QueryKey.valuePersistentRef]?.dataValue
            case (true, false, .data(let found)?): secret = found
            case (false, true, .data(let found)?): reference = found
            default: break
            }
            result = nil
        }
        defer { secret.zeroize() }
        guard status == errSecSuccess else { return status }
        if wantsItem, reference == nil {
            return refuse(call, .internal, reason: "the keychain returned no persistent reference for the item")
        }
        if wantsData, let passwordData {
            guard let copy = handOut(secret) else { return refuse(call, .allocate, reason: "no memory for the password") }
            passwordData.pointee = copy
        }
        if wantsData, let passwordLength { passwordLength.pointee = UInt32(secret.count) }
        if let itemRef, let reference { itemRef.pointee = SecKeychainItem(itemClass: itemClass, persistentReference: reference) }
        return errSecSuccess
    }

    /// Adds `attributes` (with the class and the password) and hands out the new item when asked.
    static func add(
        _ name: String, _ attributes: QueryDictionary, itemClass: ItemClass, passwordLength: UInt32,
        passwordData: UnsafeRawPointer, itemRef: UnsafeMutablePointer<SecKeychainItem?>?
    ) -> OSStatus {
        var query = attributes
        query[QueryKey.itemClass] = .string(itemClass.rawValue)
        query[QueryKey.valueData] = .data(secret(passwordData, count: passwordLength))
        if itemRef != nil { query[QueryKey.returnPersistentRef] = .bool(true) }
        var reference: Data?
        let status = run("\(name)(\(Diagnostics.render(query)))") { client throws(KeychainFailure) in
            reference = try client.blocking.add(query)?.dataValue
        }
        guard status == errSecSuccess else { return status }
        if let itemRef, let reference { itemRef.pointee = SecKeychainItem(itemClass: itemClass, persistentReference: reference) }
        return errSecSuccess
    }
}
