import Foundation
import KeychainModel
import Testing
@testable import Query

/// A certificate query (`kSecClassCertificate`) with the given entries.
func certificates(_ extra: [KeychainValue: KeychainValue] = [:]) -> QueryDictionary {
    var query: QueryDictionary = ["class": "cert"]
    for (key, value) in extra { query.entries[key] = value }
    return query
}

/// Certificate items (§1.3.3, §1.4, §1.5, §7.3): defaults, uniqueness, the reference's dictionary and its
/// expansion, the issuer normalization hook, and `kSecReturnRef`.
@Suite("Certificate items", .timeLimit(.minutes(10)))
struct CertificateItemTests {
    private let der = Data([0x30, 0x03, 0x02, 0x01, 0x01])

    private func reference() -> ItemReference {
        CertificateItem.reference(
            type: 3, encoding: 3, subject: Data([0x31, 0x00]), issuer: Data([0x31, 0x01]), serialNumber: Data([0x00, 0x80]),
            subjectKeyID: nil, publicKeyHash: Data(repeating: 7, count: 20), der: der)
    }

    /// §1.5: `dk` by default, the NOT NULL defaults of the constraint's attributes.
    @Test func addWithoutAttributesGetsTheCertificateDefaults() throws {
        let request = try QueryParser.parseAdd(certificates(["v_Data": .data(der)]))
        #expect(request.itemClass == .certificate)
        #expect(request.protection == .always)
        #expect(request.attributes["ctyp"] == .number(0))
        #expect(request.attributes["issr"] == .data(Data()))
        #expect(request.attributes["slnr"] == .data(Data()))
    }

    /// §1.4: type, issuer and serial (with the shared attributes) make a certificate unique; the label does not.
    @Test func uniquenessIsTypeIssuerAndSerial() throws {
        #expect(
            AttributeCatalogue.uniquenessCodes(for: .certificate)
                == ["ctyp", "issr", "slnr", "agrp", "sync", "vwht", "tkid", "musr", "ggrp"])
        func key(_ extra: [KeychainValue: KeychainValue]) throws -> Data {
            let base: [KeychainValue: KeychainValue] = ["ctyp": 3, "issr": .data(Data([1])), "slnr": .data(Data([2]))]
            return try QueryParser.parseAdd(certificates(base.merging(extra) { $1 }))
                .attributes(withAccessGroup: "TEAM.g").uniquenessKey(for: .certificate)
        }
        let base = try key([:])
        #expect(try key(["labl": "other", "pkhh": .data(Data([9])), "subj": .data(Data([3]))]) == base)
        #expect(try key(["slnr": .data(Data([0, 2]))]) != base)
        #expect(try key(["issr": .data(Data([4]))]) != base)
        #expect(try key(["ctyp": 1]) != base)
    }

    /// §7.3: Apple's dictionary of a certificate, and its expansion: the caller's entries win, the subject summary
    /// is the label of an add only, and a search matches on the DER too.
    @Test func aReferenceExpandsAsApplesClientExpandsIt() throws {
        let reference = reference()
        #expect(reference.attributes["class"] == "cert")
        #expect(reference.attributes["ctyp"] == .number(3) && reference.attributes["cenc"] == .number(3))
        #expect(reference.attributes["skid"] == nil)
        let added = CertificateItem.expanded(["v_Ref": .itemReference(reference), "pdmn": "ak"], label: "Summary", forSearch: false)
        #expect(added["v_Ref"] == nil)
        #expect(added["labl"] == "Summary" && added["pdmn"] == "ak")
        #expect(added["slnr"] == .data(Data([0x00, 0x80])) && added["v_Data"] == .data(der))
        let labelled = CertificateItem.expanded(["v_Ref": .itemReference(reference), "labl": "Mine"], label: "Summary", forSearch: false)
        #expect(labelled["labl"] == "Mine")
        let searched = CertificateItem.expanded(["v_Ref": .itemReference(reference)], label: "Summary", forSearch: true)
        #expect(searched["labl"] == nil && searched["v_Data"] == .data(der) && searched["class"] == "cert")
        let request = try QueryParser.parseAdd(added)
        #expect(request.attributes["pkhh"] == .data(Data(repeating: 7, count: 20)))
        // No normalized issuer: Apple makes no dictionary, so the item has neither issuer nor serial from it.
        let unnormalized = CertificateItem.reference(
            type: 3, encoding: 3, subject: nil, issuer: nil, serialNumber: Data([1]), subjectKeyID: nil, publicKeyHash: Data(), der: der)
        #expect(unnormalized.attributes["issr"] == nil && unnormalized.attributes["slnr"] == nil)
    }

    /// `kSecAttrIssuer` as data goes through the front end's normalization; anything else stays.
    @Test func theIssuerIsNormalizedWhenTheHookAnswers() {
        let normalized = CertificateItem.normalizingIssuer(certificates(["issr": .data(Data([0x30, 0]))])) { _ in Data([9]) }
        #expect(normalized["issr"] == .data(Data([9])))
        let kept = CertificateItem.normalizingIssuer(certificates(["issr": .data(Data([1]))])) { _ in nil }
        #expect(kept["issr"] == .data(Data([1])))
        let text = CertificateItem.normalizingIssuer(certificates(["issr": "text"])) { _ in Data([9]) }
        #expect(text["issr"] == "text")
    }

    /// §2.4: `kSecReturnRef` on a certificate is an ``ItemReference`` carrying its DER.
    @Test func aRefOnACertificateIsAReferenceWithItsData() throws {
        let search = try QueryParser.parseSearch(certificates(["r_Ref": true]))
        #expect(search.needsData)
    }
}
