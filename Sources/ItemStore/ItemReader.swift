import Foundation
import KeychainModel

/// Reads on one ``ItemStore/read(_:)`` connection. Valid only inside the body it was given to.
public struct ItemReader: ItemReading {
    let access: ItemAccess

    init(_ access: ItemAccess) { self.access = access }

    public func select(_ selection: ItemSelection) throws -> [StoredItem] { try access.select(selection) }
    public func openAttributes(_ item: StoredItem) throws -> Data { try access.openAttributes(item) }
    public func openSecret(_ item: StoredItem) throws -> Data? { try access.openSecret(item) }
    public func count(of itemClass: ItemClass) throws -> Int { try access.count(of: itemClass) }
}
