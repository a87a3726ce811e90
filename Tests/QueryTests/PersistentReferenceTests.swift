import Foundation
import KeychainModel
import Testing
@testable import Query

@Suite("Persistent references (§9)", .timeLimit(.minutes(10)))
struct PersistentReferenceTests {
    @Test func uuidFormIsClassPlusSixteenBytes() throws {
        let data = genpReference.data
        #expect(data.count == 20)
        #expect(data.prefix(4) == Data("genp".utf8))
        let parsed = try #require(PersistentReference(data: data))
        #expect(parsed == genpReference)
        #expect(parsed.itemClass == .genericPassword)
        #expect(parsed.uuid == genpReference.uuid)
        #expect(!parsed.isLegacy)
    }

    @Test func legacyFormIsClassPlusBigEndianRowID() {
        #expect(legacyGenpReference.identity == .legacyRowID(7))
        #expect(legacyGenpReference.isLegacy)
        #expect(legacyGenpReference.data.count == 12)
        #expect(legacyGenpReference.uuid == nil)
    }

    @Test func malformedReferencesAreRejected() {
        #expect(PersistentReference(data: Data("genp".utf8)) == nil)
        #expect(PersistentReference(data: Data("xxxx".utf8) + Data(count: 16)) == nil)
        #expect(PersistentReference(data: Data("tkpr".utf8) + Data(count: 16)) == nil)
    }

    @Test func appleSharePasswordParsesButHasNoClass() {
        let reference = PersistentReference(data: Data("apls".utf8) + Data(count: 16))
        #expect(reference?.classCode == "apls")
        #expect(reference?.itemClass == nil)
    }
}
