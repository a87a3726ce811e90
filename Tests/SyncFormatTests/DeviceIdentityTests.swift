import Crypto
import Foundation
import Testing

@testable import SyncFormat

/// Devices' identities: hybrid signatures that need both halves, identities that round-trip their encoding and
/// refuse damage, and zone keys shared to one device for one zone and version only.
@Suite("Sync format: device identities, signatures and key shares")
struct DeviceIdentityTests {
    @Test func aHybridSignatureNeedsBothHalvesAndItsContext() throws {
        let device = try DeviceIdentity(name: "laptop")
        let message = Data("add device 2".utf8)
        let signature = try device.signature(for: message, context: "device-log")
        #expect(signature.count == HybridSignature.size)
        let identity = device.publicIdentity
        #expect(identity.isValidSignature(signature, of: message, context: "device-log"))
        #expect(!identity.isValidSignature(signature, of: message, context: "other"))
        #expect(!identity.isValidSignature(signature, of: Data("add device 3".utf8), context: "device-log"))
        // Damage to either half, or another device's signature, does not verify.
        for index in [0, 40, 64, 100, signature.count - 1] {
            var changed = signature
            changed[index] ^= 0x01
            #expect(!identity.isValidSignature(changed, of: message, context: "device-log"), "byte \(index)")
        }
        let other = try DeviceIdentity(name: "intruder")
        #expect(!identity.isValidSignature(try other.signature(for: message, context: "device-log"), of: message, context: "device-log"))
        // Half of one device's signature with half of another's does not verify either.
        let mixed = signature.prefix(64) + (try other.signature(for: message, context: "device-log")).suffix(HybridSignature.size - 64)
        #expect(!identity.isValidSignature(mixed, of: message, context: "device-log"))
        #expect(!identity.isValidSignature(signature.prefix(64), of: message, context: "device-log"))
    }

    @Test func anIdentityRoundTripsItsEncodingAndRefusesDamage() throws {
        let identity = try DeviceIdentity(name: "desktop ✓").publicIdentity
        let encoded = identity.encoded
        #expect(try DevicePublicIdentity(encoded: encoded) == identity)
        for length in [0, 15, 16, 17, encoded.count - 1] {
            #expect(throws: DeviceIdentityError.malformed) { try DevicePublicIdentity(encoded: encoded.prefix(length)) }
        }
        #expect(throws: DeviceIdentityError.malformed) { try DevicePublicIdentity(encoded: encoded + Data([0])) }
        var badKey = encoded
        badKey[16 + 2 + "desktop ✓".utf8.count + 2] ^= 0xFF  // the P-256 key's first byte: no longer a point's encoding
        #expect(throws: DeviceIdentityError.malformed) { try DevicePublicIdentity(encoded: badKey) }
    }

    @Test func aKeyShareOpensForItsDeviceZoneAndVersionOnly() throws {
        let laptop = try DeviceIdentity(name: "laptop")
        let desktop = try DeviceIdentity(name: "desktop")
        let zone = UUID()
        let key = ZoneKey(version: 4)
        let share = try KeyShare.seal(key, zone: zone, to: laptop.publicIdentity)
        let opened = try laptop.openKeyShare(share, zone: zone, keyVersion: 4)
        #expect(opened.version == 4)
        #expect(opened.withUnsafeBytes { Data($0) } == key.withUnsafeBytes { Data($0) })
        #expect(throws: KeyShareError.tampered) { try desktop.openKeyShare(share, zone: zone, keyVersion: 4) }
        #expect(throws: KeyShareError.tampered) { try laptop.openKeyShare(share, zone: UUID(), keyVersion: 4) }
        #expect(throws: KeyShareError.tampered) { try laptop.openKeyShare(share, zone: zone, keyVersion: 5) }
        var changed = share
        changed[changed.count - 1] ^= 0x01
        #expect(throws: KeyShareError.tampered) { try laptop.openKeyShare(changed, zone: zone, keyVersion: 4) }
        #expect(throws: KeyShareError.malformed) { try laptop.openKeyShare(share.dropLast(), zone: zone, keyVersion: 4) }
        // Nothing of the key shows in the share.
        #expect(key.withUnsafeBytes { share.range(of: Data($0)) } == nil)
    }
}
