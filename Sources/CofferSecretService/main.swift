import CredentialHelperSupport
import Foundation
import SecretService

#if canImport(Glibc)
import Glibc
#endif

// `coffer-secret-service`: serves org.freedesktop.secrets on the session bus over the keychain the
// environment selects (COFFER_HOME: embedded; COFFER_SOCKET: cofferd), until SIGTERM or SIGINT, or until the
// bus goes away. COFFER_SECRET_SERVICE_ISOLATION=shared lets every program see every item (gnome-keyring's
// behaviour); the default, per-program, keeps programs apart. It never logs a secret, an attribute or a label.
// `coffer-secret-service --import [--for PATH]` copies another running provider's items instead (ImportMode).

// `--import`: copy the items of the provider running now into this one's keychain, then exit.
if ImportMode.isRequested(Array(CommandLine.arguments.dropFirst())) {
    ImportMode.run(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
}

// The signals are taken by sigwait below: block them before any thread starts, so every thread inherits it.
var stopSignals = sigset_t()
sigemptyset(&stopSignals)
sigaddset(&stopSignals, SIGTERM)
sigaddset(&stopSignals, SIGINT)
pthread_sigmask(SIG_BLOCK, &stopSignals, nil)

let environment = ProcessInfo.processInfo.environment
let isolationSetting = environment["COFFER_SECRET_SERVICE_ISOLATION"] ?? SecretServiceIsolation.perProgram.rawValue
guard let isolation = SecretServiceIsolation(setting: isolationSetting) else {
    let accepted = SecretServiceIsolation.allCases.map(\.rawValue).joined(separator: " or ")
    FileHandle.standardError.write(Data("coffer-secret-service: COFFER_SECRET_SERVICE_ISOLATION must be \(accepted)\n".utf8))
    exit(2)
}
let client = HelperKeychain.connect(environment: environment)
let server = SecretServiceServer(
    client: client, isolation: isolation, unlocker: ProviderUnlocker.make(client: client, environment: environment))
do {
    try server.start()
} catch {
    FileHandle.standardError.write(Data("coffer-secret-service: \(error)\n".utf8))
    exit(1)
}
// Said on standard output once the name is taken, for whoever waits for the provider to be ready.
FileHandle.standardOutput.write(Data("coffer-secret-service: serving \(SecretServiceServer.busName)\n".utf8))

// The bus gone, nothing is left to serve.
let watcher = Thread {
    server.waitUntilFinished()
    exit(0)
}
watcher.start()

var received: Int32 = 0
sigwait(&stopSignals, &received)
server.stop()
exit(0)
