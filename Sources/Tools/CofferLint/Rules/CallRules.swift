import KeychainModel
import Query
import SwiftSyntax

/// The rules that judge one SecItem call from the dictionaries it receives.
enum CallRules {
    /// A finding before it has a file position: the rule, the message, where in the file.
    struct Finding {
        let rule: LintRule
        let message: String
        let position: AbsolutePosition
    }

    static func check(_ call: KeychainCall) -> [Finding] {
        let name = call.function.rawValue
        var findings = attributesOfOtherClasses(call.query)
        if call.function == .add, let limit = call.query.entry(QueryKey.matchLimit) {
            findings.append(Finding(rule: .matchLimitInAdd, message: "\(limit.constantName) in \(name): a search key in an add", position: limit.position))
        }
        if call.function == .update {
            for dictionary in [call.query] + (call.attributesToUpdate.map { [$0] } ?? []) {
                for entry in dictionary.entries where entry.constantName.hasPrefix("kSecReturn") {
                    findings.append(
                        Finding(rule: .returnInUpdate, message: "\(entry.constantName) in SecItemUpdate, which returns nothing", position: entry.position))
                }
            }
            if let data = call.query.entry(QueryKey.valueData) {
                findings.append(
                    Finding(
                        rule: .valueInUpdateQuery, message: "kSecValueData in SecItemUpdate's query: the new data goes in the attributes to update",
                        position: data.position))
            }
            if let itemClass = call.attributesToUpdate?.entry(QueryKey.itemClass) {
                findings.append(
                    Finding(
                        rule: .classInUpdateAttributes, message: "kSecClass in SecItemUpdate's attributes to update: an item's class cannot change",
                        position: itemClass.position))
            }
        }
        for dictionary in [call.query] + (call.attributesToUpdate.map { [$0] } ?? []) {
            if let accessible = dictionary.entry(QueryKey.accessible), let value = accessible.valueName,
                value == "kSecAttrAccessibleAlways" || value == "kSecAttrAccessibleAlwaysThisDeviceOnly"
            {
                findings.append(
                    Finding(
                        rule: .accessibleAlways, message: "\(value) is deprecated: the item is readable while the device is locked",
                        position: accessible.position))
            }
        }
        return findings
    }

    /// Keys that are attributes of some item class but not of the class the dictionary names.
    private static func attributesOfOtherClasses(_ dictionary: TrackedDictionary) -> [Finding] {
        guard let code = dictionary.itemClassCode, let itemClass = ItemClass(rawValue: code), itemClass != .identity else { return [] }
        let ownCodes = Set(AttributeCatalogue.descriptors(for: itemClass).map(\.code))
        let anyClass = Set([ItemClass.genericPassword, .internetPassword, .certificate, .key].flatMap { AttributeCatalogue.descriptors(for: $0).map(\.code) })
        let className = dictionary.entry(QueryKey.itemClass).map { _ in classConstant(itemClass) } ?? code
        return dictionary.entries.filter { anyClass.contains($0.code) && !ownCodes.contains($0.code) }.map { entry in
            Finding(rule: .attributeNotInClass, message: "\(entry.constantName) is not an attribute of \(className)", position: entry.position)
        }
    }

    private static func classConstant(_ itemClass: ItemClass) -> String {
        switch itemClass {
        case .genericPassword: "kSecClassGenericPassword"
        case .internetPassword: "kSecClassInternetPassword"
        case .certificate: "kSecClassCertificate"
        case .key: "kSecClassKey"
        case .identity: "kSecClassIdentity"
        }
    }
}
