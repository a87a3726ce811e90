import Foundation
import KeychainModel

/// Reads on one ``ItemStore/read(_:)`` connection. Valid only inside the body it was given to.
public struct ItemReader: ItemReading {
    let reads: ReadAccess

    init(_ reads: ReadAccess) { self.reads = reads }

    public func select(_ selection: ItemSelection) throws -> [StoredItem] { try reads.select(selection) }
    public func forEachRow(_ selection: ItemSelection, _ body: (StoredItem) throws -> Void) throws { try reads.forEachRow(selection, body) }
    public func openAttributes(_ item: StoredItem) throws -> Data { try reads.openAttributes(item) }
    public func openSecret(_ item: StoredItem) throws -> Data? { try reads.openSecret(item) }
    public func count(of itemClass: ItemClass) throws -> Int { try reads.count(of: itemClass) }
}
