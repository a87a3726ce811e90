import Crypto
import Foundation
import Testing

@testable import SyncFormat

/// Records sealed for the server: opened only at the place, version and key they were sealed for; anything a
/// hostile server changes, moves, replays or rolls back is refused as tampered.
@Suite("Sync format: sealed records")
struct RecordSealTests {
    private let key = ZoneKey(version: 1)
    private let place = RecordPlace(zone: UUID(), record: UUID(), version: 3, deleted: false)
    private let content = Data("svce=mail.example.com;acct=me;secret=hunter2".utf8)

    @Test func aRecordOpensWhereItWasSealed() throws {
        let sealed = try RecordSeal.seal(content, at: place, with: key)
        #expect(try RecordSeal.open(sealed, at: place, zoneKeys: [1: key]) == content)
        #expect(try RecordSeal.keyVersion(of: sealed) == 1)
        // Nothing of the content shows in what the server stores.
        #expect(sealed.range(of: Data("hunter2".utf8)) == nil && sealed.range(of: Data("mail.example".utf8)) == nil)
        #expect(sealed.count == content.count + 4 + 8 + 40 + 12 + 16)
    }

    @Test func aRecordMovedReplayedOrTurnedIntoATombstoneIsRefused() throws {
        let sealed = try RecordSeal.seal(content, at: place, with: key)
        let elsewhere = [
            RecordPlace(zone: UUID(), record: place.record, version: place.version, deleted: false),
            RecordPlace(zone: place.zone, record: UUID(), version: place.version, deleted: false),
            RecordPlace(zone: place.zone, record: place.record, version: place.version + 1, deleted: false),
            RecordPlace(zone: place.zone, record: place.record, version: place.version - 1, deleted: false),
            RecordPlace(zone: place.zone, record: place.record, version: place.version, deleted: true),
        ]
        for other in elsewhere {
            #expect(throws: SealedRecordError.tampered) { try RecordSeal.open(sealed, at: other, zoneKeys: [1: key]) }
        }
    }

    @Test func everyChangedByteIsRefused() throws {
        let sealed = try RecordSeal.seal(content, at: place, with: key)
        for index in sealed.indices {
            var changed = sealed
            changed[index] ^= 0x01
            #expect(throws: SealedRecordError.self, "byte \(index)") { try RecordSeal.open(changed, at: place, zoneKeys: [1: key]) }
        }
        for length in [0, 4, 63, 79, sealed.count - 1] {
            #expect(throws: SealedRecordError.self, "\(length) bytes") {
                try RecordSeal.open(sealed.prefix(length), at: place, zoneKeys: [1: key])
            }
        }
    }

    @Test func theKeyVersionDecidesAndAnotherKeyDoesNotOpen() throws {
        let second = ZoneKey(version: 2)
        let sealed = try RecordSeal.seal(content, at: place, with: second)
        #expect(throws: SealedRecordError.unknownKeyVersion(2)) { try RecordSeal.open(sealed, at: place, zoneKeys: [1: key]) }
        #expect(try RecordSeal.open(sealed, at: place, zoneKeys: [1: key, 2: second]) == content)
        // A server that relabels the key version, or a device with another key under the same version, opens nothing.
        var relabelled = sealed
        relabelled[11] = 1
        #expect(throws: SealedRecordError.tampered) { try RecordSeal.open(relabelled, at: place, zoneKeys: [1: key, 2: second]) }
        #expect(throws: SealedRecordError.tampered) {
            try RecordSeal.open(sealed, at: place, zoneKeys: [2: ZoneKey(version: 2)])
        }
    }

    @Test func twoSealsOfOneContentDiffer() throws {
        let first = try RecordSeal.seal(content, at: place, with: key)
        let second = try RecordSeal.seal(content, at: place, with: key)
        #expect(first != second)
    }
}
