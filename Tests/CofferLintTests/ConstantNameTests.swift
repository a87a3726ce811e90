import Foundation
import KeychainModel
import Query
import Testing

/// The linter knows Apple's constants by the strings Coffer's `Security` module gives them: every `kSec…` key and
/// value constant the module declares for SecItem dictionaries, read from its source, has the same string here.
@Suite struct ConstantNameTests {
    private static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// `static let name = "value"` of a constants file.
    private func members(of file: String) throws -> [String: String] {
        let text = try String(contentsOf: Self.sources.appendingPathComponent(file), encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"static let `?(\w+)`? = "([^"]*)""#)
        var members: [String: String] = [:]
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text), let value = Range(match.range(at: 2), in: text) else { continue }
            members[String(text[name])] = String(text[value])
        }
        return members
    }

    /// The string a declaration's initializer gives, read the way `CFString+ItemConstants.swift` builds it.
    private func value(of initializer: String, named: [String: [String: String]]) -> String? {
        func match(_ pattern: String) -> [String]? {
            guard let expression = try? NSRegularExpression(pattern: "^" + pattern + "$"),
                let found = expression.firstMatch(in: initializer, range: NSRange(initializer.startIndex..., in: initializer))
            else { return nil }
            return (1..<found.numberOfRanges).map { Range(found.range(at: $0), in: initializer).map { String(initializer[$0]) } ?? "" }
        }
        if let groups = match(#"\.constant\("([^"]*)"\)"#) { return groups[0] }
        if let groups = match(#"\.constant\(QueryKey\.inetExtraClientDefined\[(\d)\]\)"#) { return QueryKey.inetExtraClientDefined[Int(groups[0]) ?? 0] }
        if let groups = match(#"\.constant\((\w+)\.`?(\w+)`?\)"#) { return named[groups[0]]?[groups[1]] }
        if let groups = match(#"\.constant\(ProtectionClass\.(\w+)\.rawValue\)"#) {
            return ProtectionClass.allCases.first { "\($0)" == groups[0] }?.rawValue
        }
        if let groups = match(#"\.tableValue\(QueryConstant\.(\w+), "(\w+)"\)"#) {
            let tables = [
                "protocols": QueryConstant.protocols, "authenticationTypes": QueryConstant.authenticationTypes,
                "keyAttributeValues": QueryConstant.keyAttributeValues,
            ]
            return tables[groups[0]]?[groups[1]]
        }
        if let groups = match(#"\.schemaAttribute\("(\w+)"\)"#) {
            return ItemClass.allCases.lazy.compactMap { AttributeCatalogue.descriptors(for: $0).first { $0.constantName == groups[0] }?.code }.first
        }
        if let groups = match(#"\.entitledUseKey\("(\w+)"\)"#) { return groups[0] }
        return nil
    }

    @Test func everySecItemConstantOfTheSecurityModuleIsKnownWithItsString() throws {
        let named = [
            "QueryKey": try members(of: "Core/Query/Constants/QueryKey.swift"), "QueryConstant": try members(of: "Core/Query/Constants/QueryConstant.swift"),
            "MacOSKey": try members(of: "Apple/Security/Items/MacOS/MacOSKey.swift"),
        ]
        let folder = Self.sources.appendingPathComponent("Apple/Security/Items/Constants")
        let declaration = try NSRegularExpression(pattern: #"public let (kSec\w+): CFString = (.+)$"#, options: .anchorsMatchLines)
        var checked = 0
        var wrong: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() {
            // A declaration the formatter wrapped is read as one line.
            let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                .replacingOccurrences(of: #"\(\s*\n\s*"#, with: "(", options: .regularExpression)
                .replacingOccurrences(of: #",\s*\n\s*"#, with: ", ", options: .regularExpression)
                .replacingOccurrences(of: #"\s*\n\s*\)"#, with: ")", options: .regularExpression)
            for match in declaration.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                guard let nameRange = Range(match.range(at: 1), in: text), let initializerRange = Range(match.range(at: 2), in: text) else { continue }
                let name = String(text[nameRange])
                guard let value = value(of: String(text[initializerRange]), named: named) else {
                    wrong.append("\(name): the test cannot read \(text[initializerRange])")
                    continue
                }
                checked += 1
                if AppleConstantNames.code(of: name) != value { wrong.append("\(name) = \(value), known as \(AppleConstantNames.code(of: name) ?? "nothing")") }
            }
        }
        #expect(checked > 150)
        #expect(wrong == [])
    }
}
