/// The type tags of the `KeychainValue` encoding; see ``KeychainValueCoding``.
enum ValueTag {
    static let null: UInt8 = 0x00
    static let `false`: UInt8 = 0x01
    static let `true`: UInt8 = 0x02
    static let string: UInt8 = 0x03
    static let data: UInt8 = 0x04
    static let number: UInt8 = 0x05
    static let double: UInt8 = 0x06
    static let date: UInt8 = 0x07
    static let uuid: UInt8 = 0x08
    static let array: UInt8 = 0x09
    static let dictionary: UInt8 = 0x0A
    static let accessControl: UInt8 = 0x0B
    static let unsupported: UInt8 = 0x0C
    static let itemReference: UInt8 = 0x0D
}
