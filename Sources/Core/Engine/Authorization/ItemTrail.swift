import Foundation
import KeychainModel
import Synchronization

/// What one item call touched, for the audit journal: the class of the items, their persistent references (as a
/// caller would see them in `kSecValuePersistentRef`), and whether their secrets were read.
public final class ItemTrail: Sendable {
    private struct Touched {
        var itemClass: ItemClass?
        var references: [Data] = []
        var secretRead = false
    }

    private let touched = Mutex(Touched())

    /// An empty trail.
    public init() {}

    /// The class of the items touched, when the call reached any.
    public var itemClass: ItemClass? { touched.withLock { $0.itemClass } }
    /// The items touched.
    public var references: [Data] { touched.withLock { $0.references } }
    /// Whether the call read the secrets of the items it returned.
    public var secretRead: Bool { touched.withLock { $0.secretRead } }

    func note(_ itemClass: ItemClass, references: [Data], secretRead: Bool = false) {
        touched.withLock {
            $0.itemClass = itemClass
            $0.references += references
            $0.secretRead = $0.secretRead || secretRead
        }
    }
}
