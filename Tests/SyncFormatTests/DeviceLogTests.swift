import Foundation
import Testing

@testable import SyncFormat

/// The device log replayed as a device would, against what a hostile server could send instead: entries it forged,
/// reordered, dropped, replaced or rolled back.
@Suite("Sync format: the device log")
struct DeviceLogTests {
    /// A founder, a second device it added, and the log's entries and anchor.
    private struct Account {
        let founder: DeviceIdentity
        let second: DeviceIdentity
        var entries: [DeviceLogEntry]
        var anchor: Data { entries[0].hash }

        init() throws {
            founder = try DeviceIdentity(name: "founder")
            second = try DeviceIdentity(name: "second")
            let first = try DeviceLogEntry(position: 1, previousHash: Data(count: 32), change: .add(founder.publicIdentity), signedBy: founder)
            let added = try DeviceLogEntry(position: 2, previousHash: first.hash, change: .add(second.publicIdentity), signedBy: founder)
            entries = [first, added]
        }

        mutating func append(_ change: DeviceLogEntry.Change, signedBy device: DeviceIdentity) throws {
            entries.append(
                try DeviceLogEntry(position: Int64(entries.count + 1), previousHash: entries.last!.hash, change: change, signedBy: device))
        }
    }

    @Test func aLogOfAddsAndRemovalsReplaysToItsTrustedDevices() throws {
        var account = try Account()
        let third = try DeviceIdentity(name: "third")
        try account.append(.add(third.publicIdentity), signedBy: account.second)
        try account.append(.remove(account.founder.publicIdentity.id), signedBy: third)
        let log = try DeviceLog(replaying: account.entries, anchor: account.anchor)
        #expect(Set(log.trusted.keys) == [account.second.publicIdentity.id, third.publicIdentity.id])
        #expect(log.trusted[third.publicIdentity.id] == third.publicIdentity)
        #expect(log.head.position == 4 && log.head.hash == account.entries[3].hash)
        // Every entry survives the server's storage.
        let stored = try account.entries.map { try DeviceLogEntry(encoded: $0.encoded) }
        #expect(stored == account.entries)
        #expect(try DeviceLog(replaying: stored, anchor: account.anchor).head.hash == log.head.hash)
    }

    @Test func aDeviceTheServerAddsIsNeverTrusted() throws {
        var account = try Account()
        let intruder = try DeviceIdentity(name: "server's own")
        try account.append(.add(intruder.publicIdentity), signedBy: intruder)
        #expect(throws: DeviceLogError.untrustedSigner(position: 3)) { try DeviceLog(replaying: account.entries, anchor: account.anchor) }
        // Nor once a trusted device's entry is edited to add it instead.
        var edited = try Account()
        try edited.append(.add(try DeviceIdentity(name: "genuine").publicIdentity), signedBy: edited.second)
        let genuine = edited.entries[2]
        var forged = genuine.encoded
        let swapped = try DeviceLogEntry(position: 3, previousHash: genuine.previousHash, change: .add(intruder.publicIdentity), signedBy: intruder)
        forged.replaceSubrange(0..<(forged.count - HybridSignature.size - 16), with: swapped.encoded.prefix(swapped.encoded.count - HybridSignature.size - 16))
        edited.entries[2] = try DeviceLogEntry(encoded: forged)
        #expect(throws: DeviceLogError.untrustedSigner(position: 3)) { try DeviceLog(replaying: edited.entries, anchor: edited.anchor) }
    }

    @Test func aRemovedDeviceSignsNothingAfterItsRemoval() throws {
        var account = try Account()
        try account.append(.remove(account.second.publicIdentity.id), signedBy: account.founder)
        try account.append(.add(try DeviceIdentity(name: "late").publicIdentity), signedBy: account.second)
        #expect(throws: DeviceLogError.untrustedSigner(position: 4)) { try DeviceLog(replaying: account.entries, anchor: account.anchor) }
    }

    @Test func aReplacedReorderedOrShortenedLogIsRefused() throws {
        var account = try Account()
        try account.append(.add(try DeviceIdentity(name: "third").publicIdentity), signedBy: account.second)
        // Another account's log, whole and valid, is not this account's.
        let other = try Account()
        #expect(throws: DeviceLogError.foreignAnchor) { try DeviceLog(replaying: other.entries, anchor: account.anchor) }
        #expect(throws: DeviceLogError.empty) { try DeviceLog(replaying: [], anchor: account.anchor) }
        // Dropped or swapped entries break the chain.
        #expect(throws: DeviceLogError.brokenChain(position: 2)) {
            try DeviceLog(replaying: [account.entries[0], account.entries[2]], anchor: account.anchor)
        }
        #expect(throws: DeviceLogError.brokenChain(position: 2)) {
            try DeviceLog(replaying: [account.entries[0], account.entries[2], account.entries[1]], anchor: account.anchor)
        }
        // A log shorter than what this device saw, or with another entry where it saw one, is a rollback.
        let seen = try DeviceLog(replaying: account.entries, anchor: account.anchor).head
        #expect(throws: DeviceLogError.rolledBack) { try DeviceLog(replaying: Array(account.entries.prefix(2)), anchor: account.anchor, knownHead: seen) }
        var fork = try Account()
        fork.entries = Array(account.entries.prefix(2))
        try fork.append(.add(try DeviceIdentity(name: "fork").publicIdentity), signedBy: account.second)
        #expect(throws: DeviceLogError.rolledBack) { try DeviceLog(replaying: fork.entries, anchor: account.anchor, knownHead: seen) }
        #expect(try DeviceLog(replaying: account.entries, anchor: account.anchor, knownHead: seen).head.position == 3)
    }

    @Test func malformedEntriesAreRefused() throws {
        let account = try Account()
        let encoded = account.entries[1].encoded
        for length in [0, 8, 40, 41, 45, encoded.count - 1] {
            #expect(throws: DeviceLogError.malformed) { try DeviceLogEntry(encoded: encoded.prefix(length)) }
        }
        #expect(throws: DeviceLogError.malformed) { try DeviceLogEntry(encoded: encoded + Data([0])) }
        var kind = encoded
        kind[40] = 9
        #expect(throws: DeviceLogError.malformed) { try DeviceLogEntry(encoded: kind) }
    }
}
