import Foundation
import KeychainModel
import KeychainOperations
import Testing

@testable import Daemon

/// A client of the daemon is told what failed, never where the daemon keeps its files.
@Suite("The daemon's paths stay inside", .timeLimit(.minutes(10)))
struct InternalPathRedactionTests {
    private let folder = "/var/lib/coffer/1000"

    @Test func keystoreReasonsLoseTheFolder() {
        let answer = InternalPathRedaction.redacting(
            .keystoreError(.io(reason: "cannot open /var/lib/coffer/1000/keybag: Permission denied")), folder: folder)
        #expect(answer == .keystoreError(.io(reason: "cannot open the daemon's keychain folder/keybag: Permission denied")))
        let damaged = InternalPathRedaction.redacting(
            .keystoreError(.unavailable(reason: "/var/lib/coffer/1000/device.key is a symbolic link")), folder: folder)
        #expect(damaged == .keystoreError(.unavailable(reason: "the daemon's keychain folder/device.key is a symbolic link")))
    }

    @Test func failuresLoseTheFolderAndEverythingElseIsUntouched() {
        #expect(
            InternalPathRedaction.redacting(.failure(.io, reason: "cannot write /var/lib/coffer/1000/apps.json"), folder: folder)
                == .failure(.io, reason: "cannot write the daemon's keychain folder/apps.json"))
        let unrelated: [Response] = [
            .status(.itemNotFound), .value(.data(Data("/var/lib/coffer/1000".utf8))),
            .keystoreError(.wrongPasscode(failedAttempts: 1, retryAfter: .zero)),
        ]
        for response in unrelated { #expect(InternalPathRedaction.redacting(response, folder: folder) == response) }
    }
}
