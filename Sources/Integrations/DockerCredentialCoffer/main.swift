import CredentialHelperSupport
import Foundation
import KeychainModel

#if canImport(Glibc)
import Glibc
#endif

// docker-credential-coffer: docker's credential helper over Coffer's keychain (`"credsStore": "coffer"` in
// ~/.docker/config.json). As docker's helpers do, every failure is one line on standard output and exit 1.

let name = "docker-credential-coffer"
let usage = "Usage: \(name) <store|get|erase|list|version>"

/// Prints `message` on standard output, as docker's helpers do, and exits with 1.
func fail(_ message: CustomStringConvertible) -> Never {
    StandardStreams.write("\(message)\n")
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 1 else {
    StandardStreams.write(usage + "\n")
    exit(1)
}
switch arguments[0] {
case "--version", "-v", "version":
    StandardStreams.write("\(name) (coffer) \(CofferVersion.current)\n")
    exit(0)
case "--help", "-h":
    StandardStreams.write(usage + "\n")
    exit(0)
case "store", "get", "erase", "list": break
default: fail("\(name): unknown action: \(arguments[0])")
}

let action = arguments[0]
var input = Data()
if action != "list" {
    guard let read = StandardStreams.readInput() else { fail("the input is longer than \(StandardStreams.inputLimit) bytes") }
    input = read
}
/// The server URL `get` and `erase` read: the input without surrounding white space.
let serverURL = String(decoding: input, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)

let helper = DockerCredentialHelper(items: InternetPasswordItems(client: HelperKeychain.connect()))
do {
    switch action {
    case "store":
        // docker's helpers join the input's lines before decoding it.
        let joined = Data(input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).joined())
        try helper.store(try DockerCredentials(json: joined))
    case "get": StandardStreams.write(try helper.get(serverURL).json)
    case "erase": try helper.erase(serverURL)
    default: StandardStreams.write(try helper.list())
    }
} catch {
    fail("\(error)")
}
