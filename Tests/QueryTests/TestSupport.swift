import Foundation
import KeychainModel
@testable import Query

/// Evaluates `parse`, throwing only Apple's status of a rejection: what the rule tests assert.
func statusOf<Result>(_ parse: @autoclosure () throws(QueryRejection) -> Result) throws(KeychainStatus) -> Result {
    try QueryRejection.statusOnly(parse())
}

/// The rejection `parse` throws, or nil when it succeeds.
func rejection<Result>(_ parse: @autoclosure () throws(QueryRejection) -> Result) -> QueryRejection? {
    do {
        _ = try parse()
        return nil
    } catch {
        return error
    }
}

/// A generic-password query with the given extra entries.
func genp(_ extra: [KeychainValue: KeychainValue] = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "genp", "acct": "alice", "svce": "mail"]
    for (key, value) in extra { query.entries[key] = value }
    return query
}

/// An internet-password query with the given extra entries.
func inet(_ extra: [KeychainValue: KeychainValue] = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "inet", "acct": "alice", "srvr": "example.com"]
    for (key, value) in extra { query.entries[key] = value }
    return query
}

/// A biometry-protected access control (it has constraints).
let biometricControl = AccessControl(protection: .whenUnlocked, flags: .biometryAny)

/// Secret bytes used in tests.
let secret = Data("s3cret".utf8)

/// A fixed persistent reference for a generic password.
let genpReference = PersistentReference(
    itemClass: .genericPassword, uuid: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!)

/// A legacy 12-byte rowid reference for a generic password.
let legacyGenpReference = PersistentReference(data: Data("genp".utf8) + Data([0, 0, 0, 0, 0, 0, 0, 7]))!
