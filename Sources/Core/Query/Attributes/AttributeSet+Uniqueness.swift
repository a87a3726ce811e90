import Foundation
import KeychainModel

extension AttributeSet {
    /// Canonical bytes of the item's uniqueness key (§1.4): for each attribute of the class's `UNIQUE`
    /// constraint, in order, its length-prefixed ``AttributeDescriptor/matchKey(of:)`` — with the stored
    /// default for an absent attribute, so two passwords that both omit `svce` collide when their `acct` is
    /// equal. Two items are duplicates exactly when these bytes are equal; the store keys a blind index with them.
    ///
    /// The set must already contain `agrp` (see ``AddRequest/attributes(withAccessGroup:)``).
    public func uniquenessKey(for itemClass: ItemClass) -> Data {
        var writer = BinaryWriter()
        writer.text16(itemClass.rawValue)
        for code in AttributeCatalogue.uniquenessCodes(for: itemClass) {
            let descriptor = AttributeCatalogue.descriptor(for: code, in: itemClass)
            let value = self[code] ?? descriptor?.absentValue ?? .string("")
            writer.bytes32(descriptor?.matchKey(of: value) ?? value.matchKey)
        }
        return writer.output
    }
}
