import ArgumentParser
import Coffer
import Foundation

/// A file protection class on the command line: its name, or Apple's letter (A–D).
struct FileClassArgument: ExpressibleByArgument {
    let protection: FileProtectionType

    private static let names: [(names: [String], protection: FileProtectionType)] = [
        (["complete", "A"], .complete),
        (["complete-unless-open", "B"], .completeUnlessOpen),
        (["complete-until-first-user-authentication", "until-first-unlock", "C"], .completeUntilFirstUserAuthentication),
        (["none", "D"], .none),
    ]

    init?(argument: String) {
        guard let match = Self.names.first(where: { $0.names.contains(argument) }) else { return nil }
        protection = match.protection
    }

    init(_ protection: FileProtectionType) { self.protection = protection }

    static var allValueStrings: [String] { names.map { $0.names[0] } }

    /// How help shows a default class: its name, not the type's inner value.
    var defaultValueDescription: String {
        Self.names.first { $0.protection.rawValue == protection.rawValue }?.names[0] ?? protection.rawValue
    }

    /// The class's name as this command spells it, with Apple's name and letter.
    static func describe(_ protection: FileProtectionType) -> String {
        let index = names.firstIndex { $0.protection.rawValue == protection.rawValue } ?? 0
        let letter = ["A", "B", "C", "D"][index]
        return "\(names[index].names[0]) (\(protection.rawValue), class \(letter))"
    }
}
