import ArgumentParser
import Security

/// `find-identity -p`: the policies `security find-identity` evaluates that Coffer's `SecTrust` has, in the order
/// `security` prints them (SSL client, SSL server, basic X.509).
enum IdentityPolicy: String, CaseIterable, ExpressibleByArgument {
    case sslClient = "ssl-client"
    case sslServer = "ssl-server"
    case basic

    /// The name `security` prints after `Policy:`.
    var title: String {
        switch self {
        case .sslClient: "SSL (client)"
        case .sslServer: "SSL (server)"
        case .basic: "X.509 Basic"
        }
    }

    /// The policy to evaluate: `SecPolicyCreateSSL` for a client's or a server's certificate (no host name), or
    /// `SecPolicyCreateBasicX509`.
    func make() -> SecPolicy {
        switch self {
        case .sslClient: SecPolicyCreateSSL(false, nil)
        case .sslServer: SecPolicyCreateSSL(true, nil)
        case .basic: SecPolicyCreateBasicX509()
        }
    }
}
