import KeychainModel
import Testing
@testable import Query

@Suite("Attribute catalogue (§1.3, §1.4)", .timeLimit(.minutes(10)))
struct AttributeCatalogueTests {
    @Test func genericPasswordHasAppleSchemaAttributes() {
        let codes = Set(AttributeCatalogue.descriptors(for: .genericPassword).map(\.code))
        let expected: Set<String> = [
            "cdat", "mdat", "desc", "icmt", "crtr", "type", "scrp", "labl", "alis", "invi", "nega", "cusi", "prot",
            "acct", "svce", "gena", "agrp", "pdmn", "sync", "tomb", "sha1", "vwht", "tkid", "accc", "musr", "UUID",
            "sysb", "pcss", "pcsk", "pcsi", "persistref", "clip", "ggrp",
        ]
        #expect(codes == expected)
    }

    @Test func internetPasswordHasItsOwnKeyAttributes() {
        let codes = Set(AttributeCatalogue.descriptors(for: .internetPassword).map(\.code))
        #expect(codes.isSuperset(of: ["sdmn", "srvr", "ptcl", "atyp", "port", "path", "binn", "bin3"]))
        #expect(!codes.contains("svce"))
        #expect(!codes.contains("gena"))
    }

    @Test func uniquenessKeysMatchAppleConstraint() {
        #expect(
            AttributeCatalogue.uniquenessCodes(for: .genericPassword)
                == ["acct", "svce", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])
        #expect(
            AttributeCatalogue.uniquenessCodes(for: .internetPassword)
                == ["acct", "sdmn", "srvr", "ptcl", "atyp", "port", "path", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            let flagged = Set(AttributeCatalogue.descriptors(for: itemClass).filter(\.isPrimaryKey).map(\.code))
            #expect(flagged == Set(AttributeCatalogue.uniquenessCodes(for: itemClass)))
        }
    }

    @Test func descriptorsCarryKindsConstantsAndDefaults() throws {
        let account = try #require(AttributeCatalogue.descriptor(for: "acct", in: .genericPassword))
        #expect(account.kind == .blob)
        #expect(account.constantName == "kSecAttrAccount")
        #expect(account.defaultValue == .string(""))
        #expect(account.flags.contains(.hashed))
        let port = try #require(AttributeCatalogue.descriptor(for: "port", in: .internetPassword))
        #expect(port.kind == .number)
        #expect(port.defaultValue == .number(0))
        #expect(AttributeCatalogue.descriptor(for: "srvr", in: .genericPassword) == nil)
        #expect(AttributeCatalogue.descriptor(for: "clip", in: .genericPassword)?.callerAccess == .forbidden)
        #expect(AttributeCatalogue.descriptor(for: "type", in: .key)?.constantName == "kSecAttrKeyType")
    }

    /// Apple's H flag (keychain/securityd/SecItemSchema.c): every attribute is part of the `sha1` digest except
    /// the digest itself and the bookkeeping Apple keeps out of it.
    @Test func digestAttributesFollowAppleHFlag() {
        let outside: Set<String> = ["sha1", "accc", "musr", "UUID", "persistref", "clip"]
        let secrets: Set<String> = ["binn", "bini", "bin0", "bin1", "bin2", "bin3"]
        for itemClass in [ItemClass.genericPassword, .internetPassword, .certificate, .key] {
            let descriptors = AttributeCatalogue.descriptors(for: itemClass)
            let notInDigest = Set(descriptors.filter { !$0.isInDigest }.map(\.code))
            #expect(notInDigest == outside.union(itemClass == .internetPassword ? secrets : []), "\(itemClass)")
        }
        #expect(AttributeCatalogue.descriptor(for: "agrp", in: .genericPassword)?.isInDigest == true)
        #expect(AttributeCatalogue.descriptor(for: "mdat", in: .internetPassword)?.isInDigest == true)
    }

    @Test func identityResolvesCertificateThenKeyAttributes() {
        #expect(AttributeCatalogue.descriptor(for: "issr", in: .identity) != nil)
        #expect(AttributeCatalogue.descriptor(for: "kcls", in: .identity) != nil)
        #expect(AttributeCatalogue.descriptor(for: "labl", in: .identity)?.kind == .blob)
    }
}
