import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Sessions end with the client that opened them: the provider watches clients leave the bus.
@Suite("Secret Service sessions and their clients", .timeLimit(.minutes(10)))
struct SessionLifetimeTests {
    private static let service = "/org/freedesktop/secrets"

    @Test
    func aSessionIsClosedWhenItsClientLeaves() throws {
        let session = try SecretServiceSession(.embedded)
        try session.startProvider()
        // `gdbus call` opens the session, then exits: its connection closes.
        let opened = try session.call(Self.service, "org.freedesktop.Secret.Service.OpenSession", ["plain", "<''>"])
        let sessionPath = String(try #require(opened.output.firstMatch(of: /'(\/org\/freedesktop\/secrets\/session\/\w+)'/)?.1))

        // The bus tells the provider the client has gone; the next call may race that signal, so ask again.
        var refused: SecretServiceSession.Outcome?
        for _ in 0..<50 {
            let used = try session.call(Self.service, "org.freedesktop.Secret.Service.GetSecrets", ["@ao []", sessionPath])
            if used.status != 0 {
                refused = used
                break
            }
            usleep(100_000)
        }
        let answer = try #require(refused, "the session outlived its client")
        #expect(answer.errors.contains("org.freedesktop.Secret.Error.NoSession"), "\(answer.errors)")
        let closed = try session.call(sessionPath, "org.freedesktop.Secret.Session.Close")
        #expect(closed.status != 0, "the session object is gone")
    }
}
