// A front end that lets the environment choose its keychain imports this target alone: the client protocol and
// both transports come with it.
@_exported import DaemonClient
@_exported import EmbeddedClient
@_exported import KeychainClient
