/// Coffer's documented size limits. Apple sets no hard limit (it only logs above 32 KiB); Coffer
/// refuses larger values with `errSecParam` (-50) so that one request cannot exhaust memory or the
/// daemon's frame size.
public enum SizeLimits {
    /// The largest `kSecValueData` accepted: 16 MiB.
    public static let valueData = 16 << 20
    /// The largest single attribute value (string or data) accepted: 64 KiB.
    public static let attributeValue = 64 << 10

    /// Checks a secret against ``valueData``.
    static func checkValueData(_ data: Data) throws(KeychainStatus) {
        guard data.count <= valueData else { throw .param }
    }

    /// Checks a coerced attribute against ``attributeValue``.
    static func checkAttribute(_ value: AttributeValue) throws(KeychainStatus) {
        switch value {
        case .string(let text): guard text.utf8.count <= attributeValue else { throw .param }
        case .data(let bytes): guard bytes.count <= attributeValue else { throw .param }
        default: break
        }
    }
}

import Foundation
import KeychainModel
