import Foundation
import Testing

/// docker-credential-coffer: docker's protocol (JSON on standard input and output) and its exact error texts.
@Suite("docker-credential-coffer", .serialized, .timeLimit(.minutes(10)))
struct DockerCredentialHelperTests {
    @Test(arguments: HelperTransport.allCases) func storeGetListEraseRoundTrip(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let store = try runner.docker(["store"], #"{"ServerURL":"https://registry.example.com:5000/v2","Username":"bob","Secret":"t0ken<&>"}"#)
        #expect(store.status == 0, "\(store.output)\(store.errors)")
        let get = try runner.docker(["get"], "https://registry.example.com:5000/v2\n")
        #expect(get.status == 0, "\(get.output)")
        #expect(get.output == #"{"ServerURL":"https://registry.example.com:5000/v2","Username":"bob","Secret":"t0ken\u003c\u0026\u003e"}"# + "\n")

        // A bare host means https; field names match without regard to case, as Go decodes them.
        #expect(try runner.docker(["store"], #"{"serverurl":"ghcr.io","username":"alice","secret":"s"}"#).status == 0)
        #expect(try runner.docker(["get"], "https://ghcr.io").output == #"{"ServerURL":"https://ghcr.io","Username":"alice","Secret":"s"}"# + "\n")
        // Storing again replaces.
        #expect(try runner.docker(["store"], #"{"ServerURL":"ghcr.io","Username":"carol","Secret":"t"}"#).status == 0)

        // list shows docker's items only, not an item git stored for the same host.
        _ = try runner.git("store", "protocol=https\nhost=ghcr.io\nusername=gituser\npassword=p\n")
        let list = try runner.docker(["list"])
        #expect(list.status == 0)
        #expect(list.output == #"{"https://ghcr.io":"carol","https://registry.example.com:5000/v2":"bob"}"# + "\n")

        #expect(try runner.docker(["erase"], "ghcr.io\n").status == 0)
        let gone = try runner.docker(["get"], "ghcr.io")
        #expect(gone.status == 1)
        #expect(gone.output == "credentials not found in native keychain\n")
        // git's item for the same host is still there.
        #expect(try runner.git("get", "protocol=https\nhost=ghcr.io\n").output == "username=gituser\npassword=p\n")
    }

    @Test func errorsAreTheTextsDockerMatches() throws {
        let runner = try HelperRunner(.embedded)
        let missing = try runner.docker(["get"], "https://nowhere.example.com")
        #expect(missing.status == 1)
        #expect(missing.output == "credentials not found in native keychain\n")
        let eraseMissing = try runner.docker(["erase"], "nowhere.example.com")
        #expect(eraseMissing.output == "credentials not found in native keychain\n")
        #expect(eraseMissing.status == 1)
        let noURL = try runner.docker(["store"], #"{"Username":"bob","Secret":"s"}"#)
        #expect(noURL.status == 1)
        #expect(noURL.output == "no credentials server URL\n")
        let noUser = try runner.docker(["store"], #"{"ServerURL":"ghcr.io","Secret":"s"}"#)
        #expect(noUser.status == 1)
        #expect(noUser.output == "no credentials username\n")
        #expect(try runner.docker(["get"], "\n").output == "no credentials server URL\n")
        #expect(try runner.docker(["get"], "ftp://example.com").output == "unsupported scheme: ftp\n")
        #expect(try runner.docker(["get"], "https://").output == "no hostname in URL\n")
        let unknown = try runner.docker(["frobnicate"])
        #expect(unknown.status == 1)
        #expect(unknown.output == "docker-credential-coffer: unknown action: frobnicate\n")
        #expect(try runner.docker(["list"]).output == "{}\n")
        let version = try runner.docker(["version"])
        #expect(version.status == 0)
        #expect(version.output.hasPrefix("docker-credential-coffer "))
    }
}
