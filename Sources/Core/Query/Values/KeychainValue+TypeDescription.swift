extension KeychainValue {
    /// The value's CF type for a rejection's reason, with the size of data: never the value itself, which
    /// may be a secret.
    var typeDescription: String {
        if case .data(let bytes) = self { return "\(typeName) (\(bytes.count) bytes)" }
        return typeName
    }
}
