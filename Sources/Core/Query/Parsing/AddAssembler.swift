import Foundation
import KeychainModel

/// Builds an ``AddRequest`` from a parsed add dictionary, filling in what the system sets on add (§1.5).
struct AddAssembler {
    let parsed: ParsedQuery

    func request() throws(QueryRejection) -> AddRequest {
        var attributes = AttributeSet()
        var accessGroup: String?
        for (code, value) in parsed.attributes {
            guard let descriptor = AttributeCatalogue.descriptor(for: code, in: parsed.itemClass) else { continue }
            if code == QueryKey.accessGroup {
                accessGroup = value.stringValue
                continue
            }
            switch descriptor.callerAccess {
            case .managed, .callerView: continue  // the engine's bookkeeping and the caller's own view
            case .sharingGroup:
                throw .missingEntitlement(
                    nil, key: code, "\(AppleNames.key(code)) needs the sharing-group entitlement, which Coffer never grants")
            case .forbidden: throw .notCallerSettable(code)  // already caught by the scanner
            case .settable: break
            }
            if descriptor.kind == .creationDate || descriptor.kind == .modificationDate { continue }
            attributes[code] = value
        }
        let protection =
            parsed.accessControl?.protection ?? parsed.accessible
            ?? ItemRules.defaultProtection(for: parsed.itemClass, accessGroup: accessGroup)
        attributes[QueryKey.accessible] = .string(protection.rawValue)
        if let control = parsed.accessControl { attributes[QueryKey.accessControl] = .accessControl(control) }
        // kSecAttrSynchronizableAny on add means "not synchronizable": `sync` stays absent and defaults to 0.
        // A11: `sync = 1` with a `…ThisDeviceOnly` class is stored as asked; such an item never leaves the device.
        fillDefaults(&attributes)
        return AddRequest(
            itemClass: parsed.itemClass, attributes: attributes, accessGroup: accessGroup, protection: protection,
            accessControl: parsed.accessControl, valueData: parsed.valueData, returns: parsed.returns,
            authentication: parsed.effectiveAuthentication)
    }

    /// NOT NULL attributes the caller left out get their Z/E defaults (`""`, 0, empty data, date 0).
    private func fillDefaults(_ attributes: inout AttributeSet) {
        for descriptor in AttributeCatalogue.descriptors(for: parsed.itemClass) {
            guard let defaultValue = descriptor.defaultValue, !attributes.contains(descriptor.code) else { continue }
            attributes[descriptor.code] = defaultValue
        }
    }
}
