import Crypto
import Foundation
import KeychainModel

/// Reads and writes the keybag file: `CFKB` ‖ version ‖ UInt32 big-endian body length ‖ JSON body
/// ‖ HMAC-SHA256 over everything before it, under a key derived from the device key. A changed,
/// truncated or swapped keybag fails the HMAC and is refused, never replaced.
enum KeybagFile {
    private static let magic = Array("CFKB".utf8)
    private static let version: UInt8 = 1
    private static let macLabel = "coffer keybag authentication v1"
    private static let maximumSize = 1 << 20

    static func encode(_ keybag: Keybag, deviceKey: DeviceKey) throws(KeystoreError) -> Data {
        let body: Data
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            body = try encoder.encode(keybag)
        } catch {
            throw .io(reason: "cannot encode the keybag")
        }
        var file = Data(magic)
        file.append(version)
        withUnsafeBytes(of: UInt32(body.count).bigEndian) { file.append(contentsOf: $0) }
        file.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: file, using: deviceKey.derivedKey(macLabel))
        file.append(contentsOf: mac)
        return file
    }

    static func decode(_ file: Data, deviceKey: DeviceKey) throws(KeystoreError) -> Keybag {
        let headerLength = magic.count + 1 + 4
        let macLength = SHA256.byteCount
        guard file.count >= headerLength + macLength else { throw .keybagDamaged(reason: "it is truncated") }
        let signed = file.prefix(file.count - macLength)
        let mac = file.suffix(macLength)
        guard HMAC<SHA256>.isValidAuthenticationCode(mac, authenticating: signed, using: deviceKey.derivedKey(macLabel)) else {
            throw .keybagDamaged(reason: "its authentication code does not match this keychain's device key")
        }
        let bytes = [UInt8](signed)
        guard Array(bytes[0..<magic.count]) == magic, bytes[magic.count] == version else {
            throw .keybagDamaged(reason: "unknown format")
        }
        let length = bytes[(magic.count + 1)..<headerLength].reduce(0) { Int($0) << 8 | Int($1) }
        guard length == bytes.count - headerLength else { throw .keybagDamaged(reason: "its length field is wrong") }
        let keybag: Keybag
        do {
            keybag = try JSONDecoder().decode(Keybag.self, from: Data(bytes[headerLength...]))
        } catch {
            throw .keybagDamaged(reason: "its contents cannot be parsed")
        }
        guard keybag.contentVersion <= Keybag.currentContentVersion else {
            throw .keybagDamaged(reason: "its contents are version \(keybag.contentVersion), newer than this Coffer reads")
        }
        return keybag
    }

    static func load(from url: URL, deviceKey: DeviceKey) throws(KeystoreError) -> Keybag? {
        guard let file = try SecureFile.read(url, limit: maximumSize) else { return nil }
        let data = file.withUnsafeBytes { Data($0) }
        return try decode(data, deviceKey: deviceKey)
    }

    static func store(_ keybag: Keybag, to url: URL, deviceKey: DeviceKey) throws(KeystoreError) {
        let data = try encode(keybag, deviceKey: deviceKey)
        var failure: KeystoreError?
        data.withUnsafeBytes { bytes in
            do throws(KeystoreError) { try SecureFile.writeAtomically(bytes, to: url) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
