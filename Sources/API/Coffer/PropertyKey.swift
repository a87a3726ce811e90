/// A property of an item, as a dictionary key: the key path that names it.
///
/// Key paths to stored properties hold no captured values, so sharing them between threads is safe.
struct PropertyKey: Hashable, @unchecked Sendable {
    let keyPath: AnyKeyPath

    init(_ keyPath: AnyKeyPath) { self.keyPath = keyPath }
}
