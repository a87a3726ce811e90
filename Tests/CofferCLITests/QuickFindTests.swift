import ArgumentParser
import Query
import Testing

@testable import CofferCLI

/// The quick reading of `find-…-password` command lines must agree with ArgumentParser's on every line it
/// accepts, and leave every other line to ArgumentParser.
@Suite("coffer: quick find command lines", .timeLimit(.minutes(10)))
struct QuickFindTests {
    /// What ArgumentParser makes of a find command line: entries, -w, -g.
    private func parsedByArgumentParser(_ arguments: [String]) throws -> ([KeychainValue: KeychainValue], Bool, Bool) {
        let command = try CofferCommand.parseAsRoot(arguments)
        if let find = command as? FindPassword<GenericPasswordAttributes> {
            return (find.attributes.entries, find.display.passwordOnly, find.display.showPassword)
        }
        if let find = command as? FindPassword<InternetPasswordAttributes> {
            return (find.attributes.entries, find.display.passwordOnly, find.display.showPassword)
        }
        Issue.record("not a find command: \(arguments)")
        return ([:], false, false)
    }

    @Test(arguments: [
        ["find-generic-password", "-s", "svc", "-a", "me", "-w"],
        ["find-generic-password", "-a", "me", "-s", "svc"],
        ["find-generic-password", "-w", "-s", "svc"],
        ["find-generic-password", "-s", "svc", "-g"],
        ["find-generic-password", "-s", "", "-l", "a label", "-j", "note", "-D", "kind", "-G", "gen"],
        ["find-generic-password"],
        ["find-generic-password", "-g", "-w"],
        ["find-internet-password", "-s", "example.com", "-r", "htps", "-P", "443", "-w"],
        ["find-internet-password", "-s", "example.com", "-a", "bob", "-d", "dom", "-p", "/login", "-t", "form", "-l", "x", "-j", "c", "-D", "k"],
        ["find-internet-password", "-P", "0"],
        ["find-internet-password", "-P", "+80"],
        ["find-internet-password", "-r", "ftp "],
    ])
    func acceptedLinesMeanWhatArgumentParserReads(_ arguments: [String]) throws {
        let quick = try #require(QuickFind(arguments))
        let (entries, passwordOnly, showPassword) = try parsedByArgumentParser(arguments)
        #expect(quick.command == arguments[0])
        #expect(quick.entries == entries)
        #expect(quick.passwordOnly == passwordOnly)
        #expect(quick.showPassword == showPassword)
    }

    @Test(arguments: [
        ["find-generic-password", "--help"],
        ["find-generic-password", "-h"],
        ["find-generic-password", "-wg"],
        ["find-generic-password", "-s"],
        ["find-generic-password", "-s", "-a"],
        ["find-generic-password", "-s", "a", "-s", "b"],
        ["find-generic-password", "-w", "-w"],
        ["find-generic-password", "-x", "value"],
        ["find-generic-password", "--service", "svc"],
        ["find-generic-password", "-s=svc"],
        ["find-generic-password", "extra"],
        ["find-generic-password", "-P", "80"],
        ["find-internet-password", "-P", "70000"],
        ["find-internet-password", "-P", "eighty"],
        ["find-internet-password", "-r", "https"],
        ["find-internet-password", "-t", "x"],
        ["find-internet-password", "-G", "generic"],
        ["add-generic-password", "-s", "svc"],
        ["status"],
        [],
    ])
    func everyOtherLineIsLeftToArgumentParser(_ arguments: [String]) {
        #expect(QuickFind(arguments) == nil)
    }
}
