import Foundation
import KeychainModel

/// Coffer's documented size limits. Apple sets no hard limit (it only logs above 32 KiB); Coffer
/// refuses larger values with `errSecParam` (-50) so that one request cannot exhaust memory or the
/// daemon's frame size.
public enum SizeLimits {
    /// The largest `kSecValueData` accepted: 16 MiB.
    public static let valueData = 16 << 20
    /// The largest single attribute value (string or data) accepted: 64 KiB.
    public static let attributeValue = 64 << 10

    /// Checks a secret against ``valueData``.
    static func checkValueData(_ data: Data) throws(QueryRejection) {
        guard data.count <= valueData else {
            throw .tooLarge(QueryKey.valueData, size: data.count, limit: valueData, limitName: "16 MiB")
        }
    }

    /// Checks the coerced value of the attribute `key` against ``attributeValue``.
    static func checkAttribute(_ value: AttributeValue, key: String?) throws(QueryRejection) {
        let size: Int
        switch value {
        case .string(let text): size = text.utf8.count
        case .data(let bytes): size = bytes.count
        default: return
        }
        guard size <= attributeValue else {
            throw .tooLarge(key, size: size, limit: attributeValue, limitName: "64 KiB in one attribute")
        }
    }
}
