import Foundation
import KeychainModel
import Query
import Testing

/// The update an upsert falls back to: the item with the added item's primary key, and what to write.
@Suite("Upsert plans", .timeLimit(.minutes(10)))
struct UpsertPlanTests {
    @Test func queryIsThePrimaryKeyWithStoredDefaultsAndChangesTheRest() {  // §1.4 and its NOT NULL defaults
        let added: QueryDictionary = [
            "class": "inet", "srvr": "h", "acct": "a", "labl": "L", "v_Data": .data(Data("x".utf8)),
            "r_Attributes": true, "r_PersistentRef": true,
        ]
        let plan = UpsertPlan(adding: added, itemClass: .internetPassword)
        #expect(plan.query == ["class": "inet", "srvr": "h", "acct": "a", "sdmn": "", "ptcl": 0, "atyp": "", "port": 0, "path": "", "sync": 0])
        #expect(plan.changes == ["labl": "L", "v_Data": .data(Data("x".utf8))])
    }

    @Test func givenKeyAttributesAndTheAccessGroupSelectTheItem() {
        let added: QueryDictionary = [
            "class": "genp", "svce": "s", "acct": "a", "agrp": "TEAM.one", "sync": true, "gena": .data(Data([1])),
        ]
        let plan = UpsertPlan(adding: added, itemClass: .genericPassword)
        #expect(plan.query == ["class": "genp", "svce": "s", "acct": "a", "agrp": "TEAM.one", "sync": true])
        #expect(plan.changes == ["gena": .data(Data([1]))])
    }
}
