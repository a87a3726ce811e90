import CredentialHelperSupport
import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

// git-credential-coffer: git's credential helper over Coffer's keychain.
// `git config --global credential.helper coffer` (on PATH) or the helper's absolute path.

let name = "git-credential-coffer"
let arguments = CommandLine.arguments.dropFirst()
guard let action = arguments.first, !action.isEmpty else {
    StandardStreams.writeError("usage: \(name) <get|store|erase>")
    exit(2)
}
switch action {
case "--help", "-h":
    StandardStreams.write(
        """
        usage: \(name) <get|store|erase>
        git's credential helper over Coffer's keychain: git runs it with an action and the credential on standard
        input (git-credential(1)). Set it up with: git config --global credential.helper coffer
        The keychain is chosen as coffer chooses it: COFFER_HOME (embedded), else COFFER_SOCKET or the system daemon.

        """)
    exit(0)
case "--version", "-v":
    StandardStreams.write("\(name) (coffer) \(CofferVersion.current)\n")
    exit(0)
default:
    break
}
guard ["get", "store", "erase"].contains(action) else {
    // git's documentation: a helper ignores an action it does not know (git may add new ones).
    exit(0)
}

let credential: GitCredential
do {
    credential = try GitCredential(lines: sequence(state: ()) { _ in readLine(strippingNewline: true) })
} catch {
    StandardStreams.writeError("\(name): \(action): bad input: \(error)")
    exit(1)
}

let helper = GitCredentialHelper(items: InternetPasswordItems(client: HelperKeychain.connect()), now: Date())
do {
    switch action {
    case "get": StandardStreams.write(try helper.get(credential))
    case "store": try helper.store(credential)
    default: try helper.erase(credential)
    }
} catch {
    StandardStreams.writeError("\(name): \(action): \(error)")
    exit(1)
}
