import Crypto
import Foundation
import KeychainModel
import Testing

@testable import ItemStore

@Suite("ItemStore: item format", .timeLimit(.minutes(10)))
struct ItemCryptoTests {
    private let ref = Data((0..<16).map { UInt8($0) })

    private func aad(
        _ label: ItemCrypto.Label = .attributes, version: UInt8 = ItemCrypto.formatVersion,
        itemClass: ItemClass = .genericPassword, protection: ProtectionClass = .whenUnlocked, ref: Data? = nil
    ) -> [UInt8] {
        ItemCrypto.aad(label, version: version, itemClass: itemClass, protection: protection, persistentRef: ref ?? self.ref)
    }

    /// The AAD binds every field: a sealed part opens only for the label, version, class, protection class
    /// and persistent reference it was sealed for.
    @Test func sealedPartsOpenOnlyInTheirOwnContext() throws {
        let key = SymmetricKey(size: .bits256)
        let blob = try ItemCrypto.seal(bytes("payload"), key: key, nonce: AES.GCM.Nonce(), aad: aad(), withPresenceByte: false)
        #expect(blob.first == ItemCrypto.formatVersion)
        #expect(try ItemCrypto.open(blob, key: key, aad: aad(), withPresenceByte: false, rowID: 1) == bytes("payload"))
        var otherRef = ref
        otherRef[15] ^= 1
        let contexts = [
            aad(.secret), aad(version: 2), aad(itemClass: .internetPassword), aad(protection: .whenUnlockedThisDeviceOnly),
            aad(ref: otherRef),
        ]
        for context in contexts {
            #expect(throws: ItemStoreError.corrupt(rowID: 7)) {
                try ItemCrypto.open(blob, key: key, aad: context, withPresenceByte: false, rowID: 7)
            }
        }
        #expect(throws: ItemStoreError.corrupt(rowID: 7)) {
            try ItemCrypto.open(blob, key: SymmetricKey(size: .bits256), aad: aad(), withPresenceByte: false, rowID: 7)
        }
        #expect(throws: ItemStoreError.corrupt(rowID: 7)) {
            try ItemCrypto.open(blob.prefix(20), key: key, aad: aad(), withPresenceByte: false, rowID: 7)
        }
    }

    @Test func paddingHidesShortLengthsAndKeepsAbsenceApartFromEmpty() throws {
        let key = SymmetricKey(size: .bits256)
        let sizes = try [nil, Data(), bytes("a"), Data(count: 27)].map {
            try ItemCrypto.seal($0, key: key, nonce: AES.GCM.Nonce(), aad: aad(.secret), withPresenceByte: true).count
        }
        #expect(Set(sizes).count == 1)  // all pad to one 32-byte block
        let longer = try ItemCrypto.seal(Data(count: 28), key: key, nonce: AES.GCM.Nonce(), aad: aad(.secret), withPresenceByte: true)
        #expect(longer.count == sizes[0] + ItemCrypto.paddingModulus)
        for payload in [nil, Data(), bytes("x"), Data(count: 1000)] {
            let blob = try ItemCrypto.seal(payload, key: key, nonce: AES.GCM.Nonce(), aad: aad(.secret), withPresenceByte: true)
            #expect(try ItemCrypto.open(blob, key: key, aad: aad(.secret), withPresenceByte: true, rowID: 1) == payload)
        }
    }

    @Test func blindIndexesAreKeyedAndDomainSeparated() {
        let key = SymmetricKey(size: .bits256)
        let genp = ItemCrypto.Indexer(indexKey: key, itemClass: .genericPassword)
        let inet = ItemCrypto.Indexer(indexKey: key, itemClass: .internetPassword)
        let other = ItemCrypto.Indexer(indexKey: SymmetricKey(size: .bits256), itemClass: .genericPassword)
        let value = bytes("alice")
        let index = genp.index(code: "acct", value: value)
        #expect(index.count == ItemCrypto.indexLength)
        #expect(index == genp.index(code: "acct", value: value))  // deterministic: equality matching works
        #expect(index != genp.index(code: "svce", value: value))
        #expect(index != inet.index(code: "acct", value: value))
        #expect(index != other.index(code: "acct", value: value))
        #expect(index != genp.index(code: "acct", value: bytes("Alice")))
        // Code and value are length-prefixed: ("acct", "x") and ("acctx", "") differ.
        #expect(genp.index(code: "acct", value: bytes("x")) != genp.index(code: "acctx", value: Data()))
        #expect(genp.uniqueDigest(value).count == 32)
        #expect(genp.uniqueDigest(value) != inet.uniqueDigest(value))
    }

    @Test func persistentRefsAreRandom16Bytes() {
        let refs = (0..<100).map { _ in ItemCrypto.randomPersistentRef() }
        #expect(refs.allSatisfy { $0.count == 16 })
        #expect(Set(refs).count == 100)
    }

    /// The item key and nonces come from one call to the kernel's generator: bytes of every value, different
    /// from call to call.
    @Test func randomBytesAreFreshOnEachCall() {
        let first = ItemCrypto.randomBytes(56)
        let second = ItemCrypto.randomBytes(56)
        #expect(first.count == 56 && second.count == 56)
        #expect(first != second)
        #expect(ItemCrypto.randomPersistentRef().count == ItemCrypto.persistentRefLength)
        // Over 64 KiB every byte value appears (a buffer left unfilled would be all zeros).
        #expect(Set(ItemCrypto.randomBytes(65_536)).count == 256)
    }
}
