import Query

/// The `kSecReturn…` keys.
enum ReturnKeys {
    /// `kSecReturnData`, `kSecReturnAttributes`, `kSecReturnRef` and `kSecReturnPersistentRef`.
    static let all = [QueryKey.returnData, QueryKey.returnAttributes, QueryKey.returnRef, QueryKey.returnPersistentRef]
}
