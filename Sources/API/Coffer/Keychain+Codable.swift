import Foundation
import Query

/// Codable values stored as generic passwords, encoded as JSON.
extension Keychain {
    /// Stores `value` as JSON in the generic password for `service` and `account`, adding the item or
    /// replacing its secret.
    ///
    /// - Parameters:
    ///   - value: the value to store; it is encoded with `JSONEncoder` (keys sorted).
    ///   - service: the item's `kSecAttrService`.
    ///   - account: the item's `kSecAttrAccount`.
    ///   - accessibility: the protection class for a new item, or a new class for an existing one; nil
    ///     keeps the keychain's default (`Accessibility.whenUnlocked`) or the existing class.
    /// - Throws: ``KeychainError`` with operation ``KeychainError/Operation/encode`` and
    ///   `KeychainStatus.param` when the value cannot be encoded, or the keychain's error.
    public func set<Value: Encodable>(
        _ value: Value, service: String, account: String, accessibility: Accessibility? = nil
    ) async throws(KeychainError) {
        let data: Data
        do {
            data = try Self.encoder.encode(value)
        } catch {
            throw KeychainError(
                status: .param, operation: .encode,
                reason:
                    "Cannot encode \(Value.self) as JSON for service \(String(reflecting: service)), account \(String(reflecting: account)): \(CodingFailure.describe(error))."
            )
        }
        try await set(GenericPassword(service: service, account: account, value: data, accessibility: accessibility))
    }

    /// The value stored as JSON in the generic password for `service` and `account`; nil when there is no
    /// such item.
    ///
    /// - Parameters:
    ///   - type: the type to decode with `JSONDecoder`.
    ///   - service: the item's `kSecAttrService`.
    ///   - account: the item's `kSecAttrAccount`.
    /// - Throws: ``KeychainError`` with operation ``KeychainError/Operation/decode`` and
    ///   `KeychainStatus.decode` (-26275) when the stored secret is not JSON for `Value` (the message
    ///   names the type and the coding path, never the secret), or the keychain's error.
    public func value<Value: Decodable>(
        _ type: Value.Type = Value.self, service: String, account: String
    ) async throws(KeychainError) -> Value? {
        guard let item = try await item(matching: GenericPasswordQuery(service: service, account: account)) else {
            return nil
        }
        do {
            return try JSONDecoder().decode(Value.self, from: item.value)
        } catch {
            throw KeychainError(
                status: .decode, operation: .decode,
                reason:
                    "The secret of the item for service \(String(reflecting: service)), account \(String(reflecting: account)) (\(item.value.count) bytes) is not JSON for \(Value.self): \(CodingFailure.describe(error))."
            )
        }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

/// Describes encoding and decoding errors by their kind, type and coding path only: Foundation's own
/// messages can quote the data, which here is a secret.
enum CodingFailure {
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as DecodingError: describe(error)
        case let error as EncodingError: describe(error)
        default: "\(type(of: error))"
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .typeMismatch(let type, let context):
            "expected \(type) at \(path(context.codingPath))"
        case .valueNotFound(let type, let context):
            "no value of type \(type) at \(path(context.codingPath))"
        case .keyNotFound(let key, let context):
            "missing key \(String(reflecting: key.stringValue)) at \(path(context.codingPath))"
        case .dataCorrupted(let context):
            context.codingPath.isEmpty ? "the data is not valid JSON" : "invalid value at \(path(context.codingPath))"
        @unknown default:
            "decoding failed"
        }
    }

    private static func describe(_ error: EncodingError) -> String {
        switch error {
        case .invalidValue(let value, let context):
            "a value of type \(type(of: value)) cannot be encoded at \(path(context.codingPath))"
        @unknown default:
            "encoding failed"
        }
    }

    private static func path(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "the top level" : codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
    }
}
