import Foundation
import Testing

/// git-credential-coffer, driven with the protocol's own lines and through `git credential`, on both transports.
@Suite("git-credential-coffer", .serialized, .timeLimit(.minutes(10)))
struct GitCredentialHelperTests {
    private static let stored = "protocol=https\nhost=example.com\nusername=bob\npassword=secr3t\n"

    @Test(arguments: HelperTransport.allCases) func storedCredentialIsReturnedByGet(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let store = try runner.git("store", Self.stored)
        #expect(store.status == 0, "\(store.errors)")
        let get = try runner.git("get", "protocol=https\nhost=example.com\n\n")
        #expect(get.status == 0, "\(get.errors)")
        #expect(get.output == "username=bob\npassword=secr3t\n")
        // The url attribute is split into protocol, user and host, as git splits it.
        let byURL = try runner.git("get", "url=https://bob@example.com\n")
        #expect(byURL.output == "username=bob\npassword=secr3t\n")
    }

    @Test(arguments: HelperTransport.allCases) func getOfAnUnknownCredentialPrintsNothing(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let get = try runner.git("get", "protocol=https\nhost=nowhere.example\n")
        #expect(get.status == 0)
        #expect(get.output.isEmpty)
        #expect(get.errors.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func storeReplacesAndEraseRemoves(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        _ = try runner.git("store", Self.stored)
        _ = try runner.git("store", "protocol=https\nhost=example.com\nusername=bob\npassword=newer\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\n").output == "username=bob\npassword=newer\n")
        let erase = try runner.git("erase", "protocol=https\nhost=example.com\nusername=bob\n")
        #expect(erase.status == 0, "\(erase.errors)")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\n").output.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func eraseRemovesOnlyWhatMatchesEveryField(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        _ = try runner.git("store", Self.stored)
        _ = try runner.git("store", "protocol=https\nhost=example.com\nusername=alice\npassword=alices\n")
        _ = try runner.git("store", "protocol=https\nhost=example.com:8443\nusername=carol\npassword=carols\n")
        _ = try runner.git("store", "protocol=http\nhost=example.com\nusername=bob\npassword=plain\n")

        // Another user, another port, another protocol: untouched.
        _ = try runner.git("erase", "protocol=https\nhost=example.com\nusername=alice\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\nusername=alice\n").output.isEmpty)
        #expect(try runner.git("get", "protocol=https\nhost=example.com\nusername=bob\n").output == "username=bob\npassword=secr3t\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com:8443\n").output == "username=carol\npassword=carols\n")
        #expect(try runner.git("get", "protocol=http\nhost=example.com\n").output == "username=bob\npassword=plain\n")

        // With a password, only an item holding that password goes.
        _ = try runner.git("erase", "protocol=https\nhost=example.com\nusername=bob\npassword=wrong\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\nusername=bob\n").output == "username=bob\npassword=secr3t\n")
        _ = try runner.git("erase", "protocol=https\nhost=example.com\nusername=bob\npassword=secr3t\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\nusername=bob\n").output.isEmpty)
        #expect(try runner.git("get", "protocol=http\nhost=example.com\n").output == "username=bob\npassword=plain\n")
    }

    @Test func expiryAndRefreshTokenAreKeptAndAnExpiredPasswordIsNotReturned() throws {
        let runner = try HelperRunner(.embedded)
        let now = Int64(Date().timeIntervalSince1970)
        // Already expired: nothing is stored.
        _ = try runner.git("store", Self.stored + "password_expiry_utc=\(now - 60)\n")
        #expect(try runner.git("get", "protocol=https\nhost=example.com\n").output.isEmpty)

        let later = now + 3600
        _ = try runner.git("store", Self.stored + "password_expiry_utc=\(later)\noauth_refresh_token=refresh-me\nwwwauth[]=Basic realm=\"x\"\n")
        #expect(
            try runner.git("get", "protocol=https\nhost=example.com\n").output
                == "username=bob\npassword=secr3t\npassword_expiry_utc=\(later)\noauth_refresh_token=refresh-me\n")

        // Stored, then expired: not returned.
        _ = try runner.git("store", Self.stored + "password_expiry_utc=\(now + 1)\n")
        usleep(2_100_000)
        #expect(try runner.git("get", "protocol=https\nhost=example.com\n").output.isEmpty)
    }

    @Test func capabilityNegotiationAndUnknownKeysAreIgnored() throws {
        let runner = try HelperRunner(.embedded)
        _ = try runner.git("store", "capability[]=authtype\ncapability[]=state\n" + Self.stored + "ephemeral=false\n")
        let get = try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=example.com\nwwwauth[]=Bearer\nfuture_key=1\n")
        #expect(get.output == "username=bob\npassword=secr3t\n")
        // An action the helper does not know is ignored, as git's documentation asks.
        #expect(try runner.git("capability", "").status == 0)
    }

    @Test func badInputAndIncompleteCredentialsFailOnStandardErrorWithoutTheSecret() throws {
        let runner = try HelperRunner(.embedded)
        let bad = try runner.git("get", "protocol=https\nnot a pair\n")
        #expect(bad.status != 0)
        #expect(bad.errors.contains("line 2 of the input is not key=value"))
        let incomplete = try runner.git("store", "protocol=https\nhost=example.com\npassword=hunter2\n")
        #expect(incomplete.status != 0)
        #expect(incomplete.errors.contains("no username"))
        #expect(!incomplete.errors.contains("hunter2"))
        let noHost = try runner.git("erase", "protocol=https\n")
        #expect(noHost.status != 0)
        #expect(noHost.errors.contains("protocol and a host"))
        #expect(try runner.git("get", "").output.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func gitCredentialFillReturnsWhatApproveStoredAndRejectErases(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let approve = try runner.gitCredential("approve", "url=https://bob:s3cret@git.example.com/team/repo.git\n\n")
        #expect(approve.status == 0, "\(approve.errors)")
        let fill = try runner.gitCredential("fill", "protocol=https\nhost=git.example.com\n\n")
        #expect(fill.status == 0, "\(fill.errors)")
        #expect(fill.output.contains("username=bob\n"))
        #expect(fill.output.contains("password=s3cret\n"))

        let reject = try runner.gitCredential("reject", "protocol=https\nhost=git.example.com\nusername=bob\npassword=s3cret\n\n")
        #expect(reject.status == 0, "\(reject.errors)")
        // Nothing left and no terminal to ask: fill fails.
        let after = try runner.gitCredential("fill", "protocol=https\nhost=git.example.com\n\n")
        #expect(after.status != 0)
        #expect(!after.output.contains("password=s3cret"))
    }

    // git 2.46's `authtype` capability (git-credential(1): "capability[]", "authtype", "credential", "ephemeral"),
    // in the exchanges of git's own t0303 `helper_test_authtype`, through the helper protocol itself (Debian's
    // git 2.39 does not send them).

    @Test(arguments: HelperTransport.allCases) func aPreEncodedCredentialIsStoredAndReturnedWithItsAuthtype(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let store = try runner.git("store", "capability[]=authtype\nauthtype=Bearer\ncredential=random-token\nprotocol=https\nhost=git.example.com\n")
        #expect(store.status == 0, "\(store.errors)")
        let get = try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=git.example.com\n")
        #expect(get.status == 0, "\(get.errors)")
        #expect(get.output == "capability[]=authtype\nauthtype=Bearer\ncredential=random-token\n")

        let withUser = try runner.git(
            "store", "capability[]=authtype\nauthtype=Bearer\ncredential=other-token\nprotocol=https\nhost=git.example.com\nusername=foobar\n")
        #expect(withUser.status == 0, "\(withUser.errors)")
        #expect(
            try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=git.example.com\nusername=foobar\n").output
                == "capability[]=authtype\nauthtype=Bearer\ncredential=other-token\nusername=foobar\n")
        // Another user name gets nothing (git then asks the person).
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=git.example.com\nusername=barbaz\n").output.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func aCredentialIsNeverGivenToAGitWithoutTheCapability(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        _ = try runner.git("store", "capability[]=authtype\nauthtype=Bearer\ncredential=random-token\nprotocol=https\nhost=git.example.com\n")
        #expect(try runner.git("get", "protocol=https\nhost=git.example.com\n").output.isEmpty)
        // authtype and credential sent without the capability are not trusted: nothing is stored from them.
        let unannounced = try runner.git("store", "authtype=Bearer\ncredential=sneaky\nprotocol=https\nhost=other.example.com\n")
        #expect(unannounced.status != 0)
        #expect(unannounced.errors.contains("no username, password"))
        #expect(!unannounced.errors.contains("sneaky"))
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=other.example.com\n").output.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func anEphemeralCredentialOrPasswordIsNotStored(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        let token = try runner.git(
            "store", "capability[]=authtype\nauthtype=Bearer\ncredential=git2-token\nprotocol=https\nhost=git2.example.com\nephemeral=1\n")
        #expect(token.status == 0, "\(token.errors)")
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=git2.example.com\n").output.isEmpty)
        let password = try runner.git(
            "store", "capability[]=authtype\nprotocol=https\nhost=git2.example.com\nusername=barbaz\npassword=secret\nephemeral=true\n")
        #expect(password.status == 0, "\(password.errors)")
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=git2.example.com\n").output.isEmpty)
    }

    @Test(arguments: HelperTransport.allCases) func eraseOfACredentialRemovesThatCredentialOnly(transport: HelperTransport) throws {
        let runner = try HelperRunner(transport)
        _ = try runner.git("store", "capability[]=authtype\nauthtype=Bearer\ncredential=token-a\nprotocol=https\nhost=a.example.com\n")
        _ = try runner.git("store", "protocol=https\nhost=a.example.com\nusername=bob\npassword=token-a\n")
        // The credential's value matches the password of bob's item too: only the credential item goes.
        let erase = try runner.git("erase", "capability[]=authtype\nauthtype=Bearer\ncredential=token-a\nprotocol=https\nhost=a.example.com\n")
        #expect(erase.status == 0, "\(erase.errors)")
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=a.example.com\nusername=bob\n").output == "username=bob\npassword=token-a\n")
        #expect(try runner.git("get", "capability[]=authtype\nprotocol=https\nhost=a.example.com\n").output == "username=bob\npassword=token-a\n")
    }
}
