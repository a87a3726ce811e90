import Foundation
import Testing
import TestProcesses

/// The freedesktop Secret Service API walked as clients use it (`Fixtures/spec-walk.py`: sessions, aliases, the
/// login and session collections, items created, read, searched, changed, replaced and deleted, their properties,
/// and the errors of wrong calls), against gnome-keyring and against `coffer-secret-service` on each transport:
/// every observation must be the same.
@Suite("coffer-secret-service answers every call of the spec walk as gnome-keyring does", .serialized, .timeLimit(.minutes(10)))
struct SpecWalkTests {
    private static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/spec-walk.py").path

    /// gnome-keyring's answers, walked once on a bus of its own.
    private static let reference = Result { () throws -> SecretServiceSession.Outcome in
        let session = try SecretServiceSession(.embedded)
        let keyring = try GnomeKeyring(on: session)
        defer { try? keyring.stop() }
        return try session.run(["/usr/bin/python3", script])
    }

    @Test(arguments: ProviderTransport.allCases)
    func everyObservationIsGnomeKeyrings(_ transport: ProviderTransport) throws {
        let expected = try Self.reference.get()
        try #require(expected.status == 0, "\(expected.errors)")
        #expect(expected.output.split(separator: "\n").count >= 70)
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        let walked = try session.run(["/usr/bin/python3", Self.script])
        #expect(walked.status == 0, "\(walked.errors)")
        let theirs = expected.output.split(separator: "\n", omittingEmptySubsequences: false)
        let ours = walked.output.split(separator: "\n", omittingEmptySubsequences: false)
        let differences = zip(theirs, ours).filter { $0 != $1 }.map { "gnome-keyring: \($0)\ncoffer:        \($1)" }
        #expect(differences.isEmpty && theirs.count == ours.count, "\(differences.joined(separator: "\n"))")
    }
}
