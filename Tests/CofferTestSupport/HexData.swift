import Foundation
import KeychainModel

extension Data {
    /// The bytes a hexadecimal string spells, two digits a byte (test vectors); traps on anything else.
    public init(hex: String) {
        guard let bytes = Hexadecimal.bytes(hex) else { preconditionFailure("not hexadecimal: \(hex)") }
        self.init(bytes)
    }
}
