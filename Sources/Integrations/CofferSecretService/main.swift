import CredentialHelperSupport
import Foundation
import KeychainModel
import SecretService

#if canImport(Glibc)
import Glibc
#endif

// `coffer-secret-service`: serves org.freedesktop.secrets on the session bus over the keychain the
// environment selects (COFFER_HOME: embedded; COFFER_SOCKET: cofferd), until SIGTERM or SIGINT, or until the
// bus goes away. Programs are kept apart unless the owner's root-owned /etc/coffer/secret-service.conf says
// `isolation = shared` (gnome-keyring's behaviour; `--settings PATH` reads another root-owned file instead); nothing
// in its environment or its arguments turns isolation off. It never logs a secret, an attribute or a label.
// `coffer-secret-service --import [--for PATH]` copies another running provider's items instead (ImportMode).

let givenArguments = Array(CommandLine.arguments.dropFirst())
if givenArguments.contains("--help") || givenArguments.contains("-h") {
    FileHandle.standardOutput.write(
        Data(
            """
            usage: coffer-secret-service [--settings PATH]
                   coffer-secret-service --import [--for PATH]
                   coffer-secret-service --owners
            Serves the Secret Service (org.freedesktop.secrets) on the session bus over Coffer's keychain, keeping each
            program's items to itself, until SIGTERM or the bus goes away. The keychain is chosen as coffer chooses it
            (COFFER_HOME, else COFFER_SOCKET or the system daemon). Isolation can be turned off only by the owner's
            root-owned /etc/coffer/secret-service.conf (isolation = shared), or the root-owned file --settings names.
            --import copies the items of the provider running now (gnome-keyring, KeePassXC) into this keychain.
            --owners says which program owns how many items (each program sees only its own).

            """.utf8))
    exit(0)
}
if givenArguments.contains("--version") {
    FileHandle.standardOutput.write(Data("coffer-secret-service (coffer) \(CofferVersion.current)\n".utf8))
    exit(0)
}

// `--owners`: say who owns which items, then exit.
if OwnersMode.isRequested(Array(CommandLine.arguments.dropFirst())) {
    OwnersMode.run(environment: ProcessInfo.processInfo.environment)
}

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
let arguments = Array(CommandLine.arguments.dropFirst())
let settingsPath = arguments.firstIndex(of: "--settings").flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
let settings: SecretServiceSettings
do {
    settings = try SecretServiceSettings.load(from: settingsPath ?? SecretServiceSettings.systemPath, environment: environment)
} catch {
    FileHandle.standardError.write(Data("coffer-secret-service: \(error)\n".utf8))
    exit(2)
}
for notice in settings.notices {
    FileHandle.standardError.write(Data("coffer-secret-service: \(notice)\n".utf8))
}
let client = HelperKeychain.connect(environment: environment)
let server = SecretServiceServer(
    client: client, isolation: settings.isolation, unlocker: ProviderUnlocker.make(client: client, environment: environment))
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
