import Foundation
import KeychainModel
import Testing
@testable import Query

@Suite("Match keys (§10.1)", .timeLimit(.minutes(10)))
struct MatchKeyTests {
    private func descriptor(_ code: String, _ itemClass: ItemClass = .genericPassword) -> AttributeDescriptor {
        AttributeCatalogue.descriptor(for: code, in: itemClass)!
    }

    @Test func hashedBlobStringEqualsDataWithSameBytes() {
        let account = descriptor("acct")
        #expect(account.matchKey(of: .string("abc")) == account.matchKey(of: .data(Data("abc".utf8))))
    }

    @Test func numberInBlobEqualsItsFourLittleEndianBytes() {
        let account = descriptor("acct")
        #expect(account.matchKey(of: .number(5)) == account.matchKey(of: .data(Data([5, 0, 0, 0]))))
    }

    @Test func matchingIsCaseSensitive() {
        let account = descriptor("acct")
        #expect(account.matchKey(of: .string("Alice")) != account.matchKey(of: .string("alice")))
    }

    @Test func numbersCompareByValueAndTextStaysText() throws {
        let port = descriptor("port", .internetPassword)
        let fromString = try AttributeValue.coerce("443", to: .number)
        #expect(port.matchKey(of: fromString) == port.matchKey(of: .number(443)))
        let protocolCode = descriptor("ptcl", .internetPassword)
        // "htps" as little-endian bytes is the number 0x73707468; Apple would never match the two.
        #expect(protocolCode.matchKey(of: .string("htps")) != protocolCode.matchKey(of: .number(0x7370_7468)))
    }

    @Test func datesCompareExactly() {
        let created = descriptor("cdat")
        let moment = Date(timeIntervalSinceReferenceDate: 100.5)
        #expect(created.matchKey(of: .date(moment)) == created.matchKey(of: .date(Date(timeIntervalSinceReferenceDate: 100.5))))
        #expect(created.matchKey(of: .date(moment)) != created.matchKey(of: .date(moment.addingTimeInterval(0.001))))
        #expect(
            AttributeValue.date(Date(timeIntervalSinceReferenceDate: -0.0)).matchKey
                == AttributeValue.date(Date(timeIntervalSinceReferenceDate: 0)).matchKey)
    }

    @Test func typedKeysNeverCollideAcrossValueTypes() {
        let keys: [Data] = [
            AttributeValue.string("\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{0}\u{5}").matchKey, AttributeValue.number(5).matchKey,
            AttributeValue.date(Date(timeIntervalSinceReferenceDate: 5)).matchKey,
            AttributeValue.accessControl(biometricControl).matchKey,
        ]
        #expect(Set(keys).count == keys.count)
    }

    @Test func uniquenessKeyUsesDefaultsAndByteEquality() {
        var first = AttributeSet([("acct", .string("bob")), ("agrp", .string("g")), ("sync", .number(0))])
        var second = AttributeSet([("acct", .data(Data("bob".utf8))), ("agrp", .string("g")), ("svce", .string(""))])
        #expect(first.uniquenessKey(for: .genericPassword) == second.uniquenessKey(for: .genericPassword))
        // Not in the key: label, protection, data.
        first["labl"] = .string("one")
        second["pdmn"] = .string("ck")
        #expect(first.uniquenessKey(for: .genericPassword) == second.uniquenessKey(for: .genericPassword))
        second["sync"] = .number(1)
        #expect(first.uniquenessKey(for: .genericPassword) != second.uniquenessKey(for: .genericPassword))
    }
}
