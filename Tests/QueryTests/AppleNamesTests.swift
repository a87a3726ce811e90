import Foundation
import KeychainModel
import Testing
@testable import Query

/// The table of Apple's names that rejections use.
@Suite("Apple names", .timeLimit(.minutes(10)))
struct AppleNamesTests {
    /// One `public static let` of `QueryKey.swift`: its values and the Apple constant its doc comment names.
    struct DeclaredKey {
        let values: [String]
        let documentedName: String?
    }

    /// The source of `QueryKey`, so that a key added later is checked too.
    static let queryKeySource: String = {
        let source = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources/Core/Query/Constants/QueryKey.swift")
        return (try? String(contentsOf: source, encoding: .utf8)) ?? ""
    }()

    /// Every key `QueryKey` declares.
    static let declaredKeys: [DeclaredKey] = {
        var keys: [DeclaredKey] = []
        var documentation = ""
        var declaration: String?
        for line in queryKeySource.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if declaration != nil {
                declaration! += trimmed
            } else if trimmed.hasPrefix("///") {
                documentation += trimmed
                continue
            } else if trimmed.hasPrefix("public static let") {
                declaration = trimmed
            } else {
                documentation = ""
                continue
            }
            guard let complete = declaration, !complete.hasSuffix("[") && !complete.hasSuffix(",") else { continue }
            keys.append(DeclaredKey(values: literals(in: complete), documentedName: firstConstant(in: documentation)))
            declaration = nil
            documentation = ""
        }
        return keys
    }()

    private static func literals(in text: String) -> [String] {
        text.split(separator: "\"", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// The first backquoted `kSec…` identifier of a doc comment.
    private static func firstConstant(in documentation: String) -> String? {
        documentation.split(separator: "`").map(String.init).first { word in
            word.hasPrefix("kSec") && word.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    @Test func queryKeySourceWasRead() {
        #expect(Self.declaredKeys.count > 60)
        #expect(Self.declaredKeys.count == Self.queryKeySource.components(separatedBy: "public static let").count - 1)
        #expect(Self.declaredKeys.contains { $0.values == ["srvr"] && $0.documentedName == "kSecAttrServer" })
        #expect(Self.declaredKeys.contains { $0.values.count == 7 && $0.documentedName == nil })  // entitledUseKeys
    }

    /// Each key has the Apple name its doc comment gives; `prot`, which Apple never named, shows quoted.
    @Test func everyQueryKeyHasItsAppleName() {
        for key in Self.declaredKeys {
            for value in key.values {
                let name = AppleNames.constantName(ofKey: value)
                if key.values.count == 1 {
                    #expect(name == key.documentedName, "QueryKey \(value)")
                } else {
                    #expect(name?.hasPrefix("kSec") == true, "QueryKey \(value)")
                }
            }
        }
        #expect(AppleNames.key(QueryKey.protected) == #""prot""#)
    }

    @Test func classNamesAndAttributesOfEveryClass() {
        for itemClass in ItemClass.allCases {
            #expect(AppleNames.itemClass(itemClass).hasPrefix("kSecClass"))
            for descriptor in AttributeCatalogue.descriptors(for: itemClass) {
                #expect(AppleNames.constantName(ofKey: descriptor.code, in: itemClass) == descriptor.constantName)
            }
        }
        #expect(AppleNames.key("crtr") == "kSecAttrCreator")
        #expect(AppleNames.key("crtr", in: .key) == "kSecAttrKeyCreator")
        #expect(AppleNames.key("atag") == "kSecAttrApplicationTag")
    }

    @Test func valueConstantsAndProtectionClasses() {
        #expect(AppleNames.constant(QueryConstant.matchLimitOne) == "kSecMatchLimitOne")
        #expect(AppleNames.constant(QueryConstant.authenticationUISkip) == "kSecUseAuthenticationUISkip")
        #expect(AppleNames.constant("f") == "kSecAttrAccessibleUntilReboot")
        for protection in ProtectionClass.allCases {
            #expect(AppleNames.protection(protection).hasPrefix("kSecAttrAccessible"))
        }
    }

    @Test func unknownStringsAreQuotedAndShortened() {
        #expect(AppleNames.key("zzzz") == #""zzzz""#)
        #expect(AppleNames.key("a\"b") == #""a\"b""#)
        #expect(AppleNames.classCode("password") == #""password""#)
        let long = String(repeating: "x", count: 100)
        #expect(AppleNames.key(long) == "\"" + String(repeating: "x", count: 40) + "\"…")
    }
}
