import Foundation
import KeychainModel
import Testing
@testable import Query

/// SearchRequest.matches (§10.1): exact equality on coerced values plus the implicit filters.
@Suite("Matching (§10.1)", .timeLimit(.minutes(10)))
struct MatchingTests {
    private func stored(_ extra: [(String, AttributeValue)] = []) -> AttributeSet {
        var attributes = AttributeSet([
            ("acct", .data(Data("alice".utf8))), ("svce", .string("mail")), ("agrp", .string("TEAM.g")),
            ("sync", .number(0)), ("tomb", .number(0)), ("pdmn", .string("ak")),
        ])
        for (code, value) in extra { attributes[code] = value }
        return attributes
    }

    private func search(_ query: QueryDictionary) throws -> SearchRequest { try QueryParser.parseSearch(query) }

    @Test func stringFilterMatchesDataStoredWithSameBytes() throws {
        #expect(try search(genp()).matches(stored()))
    }

    @Test func matchingIsExactAndCaseSensitive() throws {
        #expect(try !search(genp(["acct": "Alice"])).matches(stored()))
        #expect(try !search(genp(["acct": "ali"])).matches(stored()))
    }

    @Test func absentAttributesCompareAsTheirStoredDefault() throws {
        #expect(try search(["class": "genp", "vwht": ""]).matches(stored()))
        #expect(try !search(["class": "genp", "labl": ""]).matches(stored()))
        #expect(try search(["class": "inet", "port": 0]).matches(stored()))
    }

    @Test func numbersMatchDecimalStrings() throws {
        let item = stored([("port", .number(443)), ("ptcl", .string("htps"))])
        #expect(try search(["class": "inet", "port": "443", "ptcl": "htps"]).matches(item))
        #expect(try !search(["class": "inet", "port": 80]).matches(item))
    }

    @Test func accessGroupFilter() throws {
        #expect(try search(genp(["agrp": "TEAM.g"])).matches(stored()))
        #expect(try !search(genp(["agrp": "TEAM.other"])).matches(stored()))
    }

    @Test func synchronizableFilter() throws {
        let synchronized = stored([("sync", .number(1))])
        #expect(try !search(genp()).matches(synchronized))
        #expect(try search(genp(["sync": true])).matches(synchronized))
        #expect(try search(genp(["sync": "syna"])).matches(synchronized))
        #expect(try search(genp(["sync": "syna"])).matches(stored()))
    }

    @Test func tombstonesAreHiddenUnlessAsked() throws {
        let tombstone = stored([("tomb", .number(1))])
        #expect(try !search(genp()).matches(tombstone))
        #expect(try search(genp(["tomb": 1])).matches(tombstone))
    }

    @Test func hostOrSubdomainOfHost() throws {
        let request = try search(["class": "inet", "m_HostOrSubdomainOfHost": "example.com"])
        #expect(request.matches(stored([("srvr", .string("example.com"))])))
        #expect(request.matches(stored([("srvr", .string("mail.example.com"))])))
        #expect(!request.matches(stored([("srvr", .string("badexample.com"))])))
        #expect(!request.matches(stored([("srvr", .data(Data("example.com".utf8)))])))
    }

    @Test func datesMatchExactly() throws {
        let moment = Date(timeIntervalSinceReferenceDate: 77.25)
        #expect(try search(genp(["cdat": .date(moment)])).matches(stored([("cdat", .date(moment))])))
        #expect(try !search(genp(["cdat": .date(moment.addingTimeInterval(1))])).matches(stored([("cdat", .date(moment))])))
    }
}
