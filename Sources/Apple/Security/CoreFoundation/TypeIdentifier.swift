/// The type identifiers ``CFGetTypeID(_:)`` returns. Values are Coffer's own; compare them only with the
/// `…GetTypeID()` functions, as on Apple platforms.
enum TypeIdentifier: CFTypeID {
    case notAType = 0
    case string = 7
    case data = 20
    case dictionary = 18
    case array = 19
    case number = 22
    case boolean = 21
    case date = 42
    case null = 16
    case error = 31
    case uuid = 33
    case accessControl = 300
    case keychainItem = 301
    case keychain = 302
    case access = 303
    case key = 304
    case certificate = 305
    case policy = 306
    case trust = 307
    case identity = 308
}
