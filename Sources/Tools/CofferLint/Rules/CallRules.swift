import KeychainModel
import Query

/// The rules that judge one call from the dictionaries it receives.
enum CallRules {
    static func check(_ call: KeychainCall) -> [Finding] {
        var findings = attributesOfOtherClasses(call)
        findings += searchAndReturnKeys(call)
        for dictionary in call.dictionaries {
            findings += protection(dictionary)
            if let data = dictionary.entry(QueryKey.valueData), data.value.isWrittenInTheSource {
                findings.append(
                    Finding(.hardCodedSecret, "kSecValueData is written into the source: the secret is in every copy of the program", at: data.point))
            }
        }
        if call.inMacOSBranch, !call.query.isTrue(QueryKey.useDataProtectionKeychain) {
            findings.append(
                Finding(
                    .dataProtectionKeychainMissing,
                    "\(call.function.rawValue) on the branch macOS and Linux take (os(iOS) is false on both) without kSecUseDataProtectionKeychain: true: macOS sends it to its file-based keychain",
                    at: call.point))
        }
        return findings
    }

    /// Keys that are attributes of some item class but not of the class the dictionary names (a key's
    /// attributes, and those nested in `kSecPrivateKeyAttrs` and `kSecPublicKeyAttrs`, for a new key).
    private static func attributesOfOtherClasses(_ call: KeychainCall) -> [Finding] {
        if call.function == .createRandomKey {
            let nested = ["private", "public"].compactMap { code -> TrackedDictionary? in
                if case .dictionary(let inner)? = call.query.entry(code)?.value { return inner }
                return nil
            }
            return ([call.query] + nested).flatMap { notIn(.key, $0, className: "a key") }
        }
        guard let code = call.query.itemClassCode, let itemClass = ItemClass(rawValue: code), itemClass != .identity else { return [] }
        let className = ClassNames.constant(itemClass)
        return call.dictionaries.flatMap { notIn(itemClass, $0, className: className) }
    }

    private static func notIn(_ itemClass: ItemClass, _ dictionary: TrackedDictionary, className: String) -> [Finding] {
        let ownCodes = Set(AttributeCatalogue.descriptors(for: itemClass).map(\.code))
        let anyClass = Set([ItemClass.genericPassword, .internetPassword, .certificate, .key].flatMap { AttributeCatalogue.descriptors(for: $0).map(\.code) })
        return dictionary.entries.filter { anyClass.contains($0.code) && !ownCodes.contains($0.code) }.map { entry in
            Finding(.attributeNotInClass, "\(entry.constantName) is not an attribute of \(className)", at: entry.point)
        }
    }

    /// Search keys in an add, return keys and data in an update, a class among an update's changes.
    private static func searchAndReturnKeys(_ call: KeychainCall) -> [Finding] {
        let name = call.function.rawValue
        var findings: [Finding] = []
        if call.function == .add, let limit = call.query.entry(QueryKey.matchLimit) {
            findings.append(Finding(.matchLimitInAdd, "\(limit.constantName) in \(name): a search key in an add", at: limit.point, fix: removal(limit)))
        }
        guard call.function == .update else { return findings }
        for dictionary in call.dictionaries {
            for entry in dictionary.entries where entry.constantName.hasPrefix("kSecReturn") {
                findings.append(Finding(.returnInUpdate, "\(entry.constantName) in SecItemUpdate, which returns nothing", at: entry.point, fix: removal(entry)))
            }
        }
        if let data = call.query.entry(QueryKey.valueData) {
            findings.append(
                Finding(.valueInUpdateQuery, "kSecValueData in SecItemUpdate's query: the new data goes in the attributes to update", at: data.point))
        }
        if let itemClass = call.attributesToUpdate?.entry(QueryKey.itemClass) {
            findings.append(
                Finding(
                    .classInUpdateAttributes, "kSecClass in SecItemUpdate's attributes to update: an item's class cannot change", at: itemClass.point,
                    fix: removal(itemClass)))
        }
        return findings
    }

    /// The deprecated Always classes, and what `kSecAttrSynchronizable` cannot go with.
    private static func protection(_ dictionary: TrackedDictionary) -> [Finding] {
        var findings: [Finding] = []
        let accessible = dictionary.entry(QueryKey.accessible)
        var control: AccessControlValue?
        if case .accessControl(let value)? = dictionary.entry(QueryKey.accessControl)?.value { control = value }
        if let accessible, let name = accessible.valueName, name.hasPrefix("kSecAttrAccessibleAlways") {
            let replacement = name.hasSuffix("ThisDeviceOnly") ? "kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly" : "kSecAttrAccessibleAfterFirstUnlock"
            findings.append(
                Finding(
                    .accessibleAlways, "\(name) is deprecated: the item is readable while the device is locked", at: accessible.point,
                    fix: accessible.valueNameSpan.map { ("use \(replacement)", TextEdit(span: $0, replacement: replacement)) }))
        }
        if let control, let name = control.protectionName, name.hasPrefix("kSecAttrAccessibleAlways"), let entry = dictionary.entry(QueryKey.accessControl) {
            findings.append(
                Finding(.accessibleAlways, "the access control's \(name) is deprecated: the item is readable while the device is locked", at: entry.point))
        }
        guard dictionary.isTrue(QueryKey.synchronizable), let sync = dictionary.entry(QueryKey.synchronizable) else { return findings }
        let thisDeviceOnly = [accessible?.valueName, control?.protectionName].compactMap { $0 }.first { $0.hasSuffix("ThisDeviceOnly") }
        if let thisDeviceOnly {
            findings.append(
                Finding(
                    .synchronizableThisDeviceOnly, "kSecAttrSynchronizable true with \(thisDeviceOnly): the item is stored but never leaves this device",
                    at: sync.point))
        }
        if let control, !control.constraints.isEmpty {
            let flags = control.constraints.map { "." + $0 }.joined(separator: ", ")
            findings.append(
                Finding(
                    .synchronizableAccessControl, "kSecAttrSynchronizable true beside an access control with \(flags): the add fails with errSecParam (-50)",
                    at: sync.point))
        }
        return findings
    }

    private static func removal(_ entry: TrackedDictionary.Entry) -> (summary: String, edit: TextEdit)? {
        entry.removal.map { ("remove \(entry.constantName)", $0) }
    }
}
