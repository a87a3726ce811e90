import Query

/// A parsed item request, as the service runs it.
enum ItemCall: Sendable {
    case add(AddRequest)
    case search(SearchRequest)
    case update(UpdateRequest)
    case delete(DeleteRequest)

    /// The call's `kSecUse…` authentication settings.
    var authentication: AuthenticationOptions {
        switch self {
        case .add(let add): add.authentication
        case .search(let search): search.authentication
        case .update(let update): update.search.authentication
        case .delete(let delete): delete.search.authentication
        }
    }

    /// Whether storing the call's access control needs the enrolled biometric set (`biometryCurrentSet`).
    var bindsBiometry: Bool {
        switch self {
        case .add(let add): add.accessControl?.flags.contains(.biometryCurrentSet) == true
        case .update(let update): update.newAccessControl?.flags.contains(.biometryCurrentSet) == true
        case .search, .delete: false
        }
    }
}
