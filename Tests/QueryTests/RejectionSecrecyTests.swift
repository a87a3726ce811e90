import Foundation
import KeychainModel
import Testing
@testable import Query

/// A rejection's text never carries the secret of `kSecValueData`, however the query goes wrong.
@Suite("Rejections keep secrets", .timeLimit(.minutes(10)))
struct RejectionSecrecyTests {
    /// A secret no reason could contain by accident.
    private static let password = "Zq7-hunter2-VxW9"
    private static let passwordData = Data(password.utf8)

    /// Queries that are refused while carrying the secret, as data or in the wrong type.
    private static func refused() -> [QueryRejection?] {
        let asData = KeychainValue.data(passwordData)
        let asText = KeychainValue.string(password)
        let oversized = KeychainValue.data(Data(repeating: passwordData[0], count: SizeLimits.valueData) + passwordData)
        return [
            rejection(try QueryParser.parseAdd(genp(["v_Data": asText]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": oversized]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": asData, "srvr": "example.com"]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": asData, "acct": .date(Date())]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": asData, "m_Limit": "m_LimitAll"]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": asData, "pdmn": "not-a-class"]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": .array([asText])]))),
            rejection(try QueryParser.parseAdd(genp(["v_Data": .dictionary(["pw": asText])]))),
            rejection(try QueryParser.parseSearch(genp(["v_Data": asText]))),
            rejection(try QueryParser.parseDelete(genp(["v_Data": asData, "m_Limit": 1]))),
            rejection(try QueryParser.parseUpdate(query: genp(), attributesToUpdate: ["v_Data": asText])),
            rejection(try QueryParser.parseUpdate(query: genp(), attributesToUpdate: ["v_Data": oversized])),
            rejection(try QueryParser.parseUpdate(query: genp(), attributesToUpdate: ["v_Data": asData, "zzzz": 1])),
            rejection(try QueryParser.parseUpdate(query: genp(["r_Data": true]), attributesToUpdate: ["v_Data": asData])),
        ]
    }

    @Test func everyQueryIsRefused() {
        for found in Self.refused() { #expect(found != nil) }
    }

    @Test func noRejectionTextContainsTheSecret() {
        for found in Self.refused() {
            guard let found else { continue }
            for text in [found.message, found.reason, found.description, String(reflecting: found)] {
                #expect(Data(text.utf8).range(of: Self.passwordData) == nil, "\(found.rule?.id ?? "-") leaks the secret")
                #expect(!text.contains(Self.passwordData.base64EncodedString()))
                #expect(!text.lowercased().contains(Self.passwordData.map { String(format: "%02x", $0) }.joined()))
            }
        }
    }
}
