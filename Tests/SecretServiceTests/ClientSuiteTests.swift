import Foundation
import Testing
import TestProcesses

/// The Python Secret Service clients' own test suites, unchanged, against `coffer-secret-service` on a private
/// session bus, on both transports: SecretStorage's (its unittest runner; the cases meant for its mock server skip
/// themselves) and python `keyring`'s for its SecretService and libsecret backends, which keep their items in the
/// `session` collection, addressed by path.
@Suite(
    "Python clients' own test suites against coffer-secret-service", .serialized, .timeLimit(.minutes(10)),
    .enabled(if: HostCapabilities.reachesPyPI, "pypi.org cannot be reached: the suites' sources come from there"))
struct ClientSuiteTests {
    /// The libraries (Debian's), pytest, and libsecret's introspection data for keyring's libsecret backend.
    static let packages = ["python3-secretstorage", "python3-keyring", "python3-pytest", "gir1.2-secret-1"]

    /// The unpacked `source` and a session whose provider serves on `transport`, with the packages installed.
    private static func prepare(_ source: ClientSuiteSource, _ transport: ProviderTransport) throws -> (folder: String, session: SecretServiceSession) {
        try DebianPackages.ensureInstalled(packages)
        let folder = try source.unpacked()
        let session = try SecretServiceSession(transport)
        try session.startProvider()
        return (folder, session)
    }

    @Test(arguments: ProviderTransport.allCases)
    func secretStoragesOwnSuitePasses(_ transport: ProviderTransport) throws {
        let (source, session) = try Self.prepare(.secretStorage, transport)
        let ran = try session.run(["/usr/bin/python3", "\(source)/tests/run_tests.py"], timeout: .seconds(300))
        // unittest reports on standard error: "Ran N tests in …" then "OK" or "FAILED (…)".
        #expect(ran.status == 0, "\(ran.errors.suffix(6_000))")
        let count = ran.errors.firstMatch(of: /Ran (\d+) tests/).flatMap { Int($0.1) } ?? 0
        #expect(count >= 26, "\(ran.errors.suffix(2_000))")
        #expect(ran.errors.contains("\nOK"))
    }

    @Test(arguments: ProviderTransport.allCases)
    func keyringsOwnSecretServiceAndLibsecretSuitesPass(_ transport: ProviderTransport) throws {
        let (source, session) = try Self.prepare(.keyring, transport)
        let ran = try session.run(
            [
                "/bin/sh", "-c",
                "cd \"$1\" && exec /usr/bin/python3 -m pytest -p no:cacheprovider -o addopts= -rs "
                    + "tests/backends/test_SecretService.py tests/backends/test_libsecret.py", "sh", source,
            ],
            timeout: .seconds(300))
        #expect(ran.status == 0, "\(ran.output.suffix(6_000))\(ran.errors.suffix(2_000))")
        let passed = ran.output.firstMatch(of: /(\d+) passed/).flatMap { Int($0.1) } ?? 0
        #expect(passed >= 26, "\(ran.output.suffix(3_000))")
        // Both backends ran: neither was skipped as not viable.
        #expect(!ran.output.contains("SKIPPED"), "\(ran.output.suffix(3_000))")
    }
}
