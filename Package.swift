// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Coffer",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Coffer", targets: ["Coffer"]),
        .library(name: "Security", targets: ["Security"]),
        .library(name: "LocalAuthentication", targets: ["LocalAuthentication"]),
        .library(name: "CryptoKit", targets: ["CryptoKit"]),
        .library(name: "CofferTLS", targets: ["CofferTLS"]),
        .executable(name: "coffer", targets: ["CofferCLI"]),
        .executable(name: "cofferd", targets: ["CofferDaemon"]),
        .executable(name: "git-credential-coffer", targets: ["GitCredentialCoffer"]),
        .executable(name: "docker-credential-coffer", targets: ["DockerCredentialCoffer"]),
        .executable(name: "coffer-secret-service", targets: ["CofferSecretService"]),
        .executable(name: "coffer-sync", targets: ["CofferSync"]),
        .executable(name: "coffer-lint", targets: ["coffer-lint"]),
        .plugin(name: "CofferLintPlugin", targets: ["CofferLintPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.3"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/swiftlang/swift-syntax.git", from: "603.0.1"),
    ],
    targets: [
        // The shared vocabulary: item and protection classes, Apple statuses, lock state and keystore errors,
        // secrets, the caller context, the keychain folder. No I/O beyond creating the folder.
        .target(name: "KeychainModel", dependencies: ["CCofferSystem"], path: "Sources/Core/KeychainModel"),
        // Small C shims for what Glibc does not expose to Swift (explicit_bzero, prctl).
        .target(name: "CCofferSystem", path: "Sources/CShims/CCofferSystem"),
        .target(name: "CSQLiteShims", path: "Sources/CShims/CSQLiteShims", linkerSettings: [.linkedLibrary("sqlite3")]),
        // libsystemd's sd-bus (apt: libsystemd-dev), with small non-variadic wrappers Swift can call.
        .target(name: "CSystemdBus", dependencies: ["CSystemdLoader"], path: "Sources/CShims/CSystemdBus"),
        // libsystemd opened on its first use (dlopen), so that programs that never reach D-Bus do not load it and the
        // six libraries it brings at every start (apt: libsystemd-dev for the headers).
        .target(name: "CSystemdLoader", path: "Sources/CShims/CSystemdLoader"),
        // Biometry through fprintd's D-Bus API: availability, the enrolled set's hash, verification. Only the
        // verifying side (the daemon, or the process of an embedded keychain) uses it.
        .target(
            name: "Biometry", dependencies: ["CSystemdBus", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Core/Biometry"),
        // COFFER_LOG handling shared by the executables and the Security module.
        .target(
            name: "CofferDiagnostics", dependencies: [.product(name: "Logging", package: "swift-log")],
            path: "Sources/System/CofferDiagnostics"),
        // Apple's query dictionaries: validation rules, typed requests, result shapes. Pure, no I/O.
        .target(name: "Query", dependencies: ["KeychainModel"], path: "Sources/Core/Query"),
        // SecKey's cryptography on swift-crypto and libcrypto: key generation and Apple's external representations, the
        // kSecKeyAlgorithm catalogue, and sign, verify, encrypt, decrypt and key exchange as Apple's adaptors
        // do them (wire formats, input checks, statuses). Pure, no I/O.
        .target(
            name: "KeyCrypto",
            dependencies: [
                "CCofferSystem", "CLibCrypto", "KeychainModel",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Formats/KeyCrypto"
        ),
        // X.509 certificates read as Apple's SecCertificate.c reads them: the fields, the normalized names, the
        // summaries and the keychain attributes derived from the DER. Pure, no I/O; beside Query, for the front
        // ends (SecCertificate) and for any server-side use.
        .target(
            name: "CertificateParsing",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/Formats/CertificateParsing"
        ),
        // libcrypto's functions, loaded with dlopen on first use rather than at every program start (apt: libssl-dev
        // for the headers), for CLibCrypto and CSecretServiceDH.
        .target(name: "CLibCryptoLoader", path: "Sources/CShims/CLibCryptoLoader"),
        // OpenSSL's libcrypto (apt: libssl-dev), for the legacy PKCS#12 ciphers swift-crypto lacks (Triple DES, and RC2
        // and RC4 from OpenSSL's legacy provider), and for HMAC-SHA256 from hash states prepared once (the blind
        // indexes and row tags of every read, which swift-crypto's HMAC re-keys and allocates for on every MAC).
        .target(name: "CLibCrypto", dependencies: ["CLibCryptoLoader"], path: "Sources/CShims/CLibCrypto"),
        // PKCS#12 (PFX) files read: MAC, PBES2 and PKCS#12 PBE decryption, certificates and PKCS#8 keys. Pure, no I/O.
        .target(
            name: "PKCS12",
            dependencies: [
                "KeychainModel", "CCofferSystem", "CLibCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/Formats/PKCS12"
        ),
        // The one list of operations: requests and responses, the same in process and through the daemon. Pure.
        .target(name: "KeychainOperations", dependencies: ["KeychainModel", "Query"], path: "Sources/Seam/KeychainOperations"),
        // A TPM 2.0 through tpm2-tss's ESAPI (Debian's libtss2-dev for the headers; the libraries are loaded with
        // dlopen, so a machine without them runs without a TPM).
        .target(name: "CTPM", path: "Sources/CShims/CTPM"),
        // The TPM as the keystore uses it: which TPM, its storage root key, sealing, the passcode's HMAC key, and
        // ECC keys that never leave it; one owner of the ESAPI context.
        .target(
            name: "TrustedPlatformModule",
            dependencies: ["CTPM", "KeychainModel", "CofferRuntime", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/System/TrustedPlatformModule"),
        // The audit journal: records sealed one by one and hash-chained with a keyed MAC, in rotating segments.
        .target(
            name: "AuditTrail", dependencies: ["CCofferSystem", "CLibCrypto", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Core/AuditTrail"),
        // The key hierarchy: device key, passcode KDF, keybag of class keys, lock state, throttling.
        .target(
            name: "Keystore",
            dependencies: [
                "KeychainModel", "CCofferSystem", "CofferDiagnostics", "TrustedPlatformModule", "BackupFormat",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Core/Keystore"
        ),
        // Items encrypted in SQLite: per-class tables, blind indexes, the item format.
        .target(
            name: "ItemStore",
            dependencies: [
                "KeychainModel", "CSQLiteShims", "CLibCrypto", "CCofferSystem",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            path: "Sources/Core/ItemStore"
        ),
        // Backups: the file (header, scrypt or a recovery key, AES-GCM chunks authenticated as a whole) and the
        // item records inside it. Pure, no I/O.
        .target(
            name: "BackupFormat",
            dependencies: [
                "KeychainModel",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Formats/BackupFormat"),
        // Runs typed requests against the store with the caller's access groups and the lock state.
        .target(
            name: "Engine",
            dependencies: [
                "AuditTrail",
                "KeychainModel", "Keystore", "Query", "ItemStore", "CofferDiagnostics", "BackupFormat", "TrustedPlatformModule",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Core/Engine"
        ),
        // Threads and sockets for every layer that blocks: one worker pool, one "run on a thread of its own", one
        // Unix socket helper (the service, both transports, the daemon, the ssh-agent, the Swift API).
        .target(name: "CofferRuntime", dependencies: ["CCofferSystem"], path: "Sources/Seam/CofferRuntime"),
        // The one handler of every request, above the engine, and the threads blocking work runs on.
        .target(
            name: "KeychainService",
            dependencies: [
                "KeychainModel", "KeychainOperations", "Query", "Keystore", "Engine", "CCofferSystem", "Biometry", "KeyCrypto",
                "BackupFormat", "CofferRuntime", "TrustedPlatformModule", "CofferDiagnostics", "AuditTrail",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Core/KeychainService"),
        // The daemon's wire format: versioned, length-prefixed frames and the codecs of the operations. Pure.
        .target(
            name: "DaemonProtocol", dependencies: ["KeychainModel", "KeychainOperations", "Query", "CCofferSystem"],
            path: "Sources/Seam/DaemonProtocol"),
        // The one client protocol the front ends use, its typed calls and the authentication retry. No transport.
        .target(
            name: "KeychainClient", dependencies: ["KeychainModel", "KeychainOperations", "Query"],
            path: "Sources/Seam/KeychainClient"),
        // One key layer for every front end: a key handle, software or kept by the keychain, and what it does.
        .target(
            name: "KeychainKeys",
            dependencies: ["KeyCrypto", "KeychainClient", "KeychainModel", "KeychainOperations", "Query", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Seam/KeychainKeys"),
        // The daemon transport: a connection to cofferd and where a per-user daemon listens. Never the engine.
        .target(
            name: "DaemonClient",
            dependencies: ["KeychainClient", "KeychainModel", "KeychainOperations", "DaemonProtocol", "CofferRuntime"],
            path: "Sources/Seam/DaemonClient"),
        // The embedded transport: the keychain service in this process, with its prompts.
        .target(
            name: "EmbeddedClient",
            dependencies: [
                "KeychainClient", "KeychainModel", "KeychainOperations", "KeychainService", "Prompting", "CofferRuntime", "TrustedPlatformModule",
            ],
            path: "Sources/Seam/EmbeddedClient"),
        // Which keychain a process uses (the environment's rule) and the process's shared client: the one target that
        // reaches both transports, re-exporting them and the client.
        .target(
            name: "KeychainSelection", dependencies: ["KeychainClient", "DaemonClient", "EmbeddedClient", "KeychainModel"],
            path: "Sources/Seam/KeychainSelection"),
        // Which program is calling: the kernel's credentials, the registry of programs, the identity rules. Used by
        // cofferd and by the providers that serve other programs (the Secret Service, the ssh-agent).
        .target(
            name: "ProgramIdentity",
            dependencies: [
                "KeychainModel", "KeychainOperations", "CofferDiagnostics",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/System/ProgramIdentity"
        ),
        // cofferd's parts: the socket server, the registry file, the prompt broker.
        .target(
            name: "Daemon",
            dependencies: [
                "TrustedPlatformModule",
                "DaemonClient", "ProgramIdentity", "Engine", "KeychainService", "KeychainOperations", "Keystore", "KeychainModel",
                "DaemonProtocol", "CofferDiagnostics", "CCofferSystem", "CofferRuntime", "SyncClient", "SyncFormat", "SyncServer", "Query",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Seam/Daemon"
        ),
        // The format of protected files (file data protection): the header, 64 KiB AES-GCM chunks bound to their
        // index and to the end of the file, the content's keys. Pure, no I/O.
        .target(
            name: "ProtectedFileFormat",
            dependencies: ["KeychainModel", .product(name: "Crypto", package: "swift-crypto")],
            path: "Sources/Formats/ProtectedFileFormat"),
        // The Swift-native API: typed items and queries, async, KeychainError; protected files.
        .target(
            name: "Coffer",
            dependencies: [
                "KeychainSelection", "KeychainClient", "KeychainKeys", "KeychainOperations", "Query", "KeychainModel", "KeyCrypto", "CertificateParsing",
                "ProtectedFileFormat", "CCofferSystem", "BackupFormat", "CofferRuntime",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/API/Coffer"),
        // Apple's keychain API on Linux: Apple's names and values, mapped onto KeychainClient.
        .target(
            name: "Security",
            dependencies: [
                "CofferRuntime", "KeychainSelection", "KeychainClient", "KeychainKeys", "KeychainOperations", "Query", "KeychainModel", "CofferDiagnostics",
                "CCofferSystem", "KeyCrypto",
                "CertificateParsing", "PKCS12",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Sources/Apple/Security"
        ),
        // Asking the person for a passcode: on the terminal, or through a pinentry program over Assuan. The
        // prompt agent and the embedded keychain's own prompts share it.
        .target(name: "Prompting", dependencies: ["KeychainModel", "CCofferSystem"], path: "Sources/System/Prompting"),
        // Apple's LAContext on Linux: policies evaluated by the keychain (passcode, fprintd), proofs that the
        // Security module's calls reuse through the shared client.
        .target(
            name: "LocalAuthentication",
            dependencies: ["KeychainSelection", "KeychainClient", "KeychainOperations", "KeychainModel", "Query", "Security"],
            path: "Sources/Apple/LocalAuthentication"
        ),
        // Apple's CryptoKit on Linux: swift-crypto's Crypto, re-exported, and SecureEnclave keys that the
        // keychain keeps (made and used by the keystore; this process holds their handles).
        .target(
            name: "CryptoKit",
            dependencies: [
                "KeychainSelection", "KeychainClient", "KeychainKeys", "KeychainOperations", "KeychainModel", "Query", "Security", "LocalAuthentication",
                "KeyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Apple/CryptoKit"
        ),
        // TLS for server-side Swift on swift-nio-ssl: App Transport Security's defaults, Coffer's trust evaluation
        // and SPKI pin sets as the peer verification, and keychain identities (keys that never leave) for mutual TLS.
        .target(
            name: "CofferTLS",
            dependencies: [
                "KeychainSelection", "Security", "KeychainClient", "CertificateParsing",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            path: "Sources/API/CofferTLS"
        ),
        // `coffer ssh-agent`'s agent: the SSH agent protocol (draft-miller-ssh-agent) over keys kept as keychain key
        // items, through Apple's functions on a KeychainClient; a Unix socket served by a thread per connection.
        .target(
            name: "SSHAgent",
            dependencies: [
                "KeychainSelection", "Security", "KeychainClient", "KeyCrypto", "CCofferSystem", "Prompting", "CofferRuntime",
                "ProgramIdentity", "KeychainOperations", "KeychainModel", "Query",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Integrations/SSHAgent"),
        // The `coffer` command-line tool.
        .executableTarget(
            name: "CofferCLI",
            dependencies: [
                "KeychainSelection", "KeychainModel", "KeychainOperations", "CCofferSystem", "CofferDiagnostics", "KeychainClient", "Query",
                "Prompting", "Security", "KeyCrypto", "SSHAgent", "ProgramIdentity",
                // coffer file: protected files through the Swift API; coffer backup and restore too.
                "Coffer", "BackupFormat",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // find-certificate -Z: the SHA-256 and SHA-1 of a certificate (already linked through KeyCrypto).
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/API/CofferCLI"
                // Not a static executable: libcrypto and libsystemd are opened on first use (dlopen), which a static
                // executable cannot do reliably. Build with --static-swift-stdlib.
        ),
        // What the credential helpers share: the keychain the environment selects, hardened as the CLI's, and
        // the internet-password calls they make.
        .target(
            name: "CredentialHelperSupport", dependencies: ["KeychainSelection", "KeychainClient", "KeychainModel", "Query", "CCofferSystem"],
            path: "Sources/Integrations/CredentialHelperSupport"),
        // `git-credential-coffer`: git's credential helper protocol, items as git-credential-osxkeychain stores them.
        .executableTarget(
            name: "GitCredentialCoffer", dependencies: ["CredentialHelperSupport", "KeychainModel"],
            path: "Sources/Integrations/GitCredentialCoffer"),
        // `docker-credential-coffer`: docker's credential helper protocol, items as its osxkeychain helper stores them.
        .executableTarget(
            name: "DockerCredentialCoffer", dependencies: ["CredentialHelperSupport", "KeychainModel"],
            path: "Sources/Integrations/DockerCredentialCoffer"),
        // The Secret Service's D-Bus objects on libsystemd's sd-bus (apt: libsystemd-dev): static vtables whose
        // handlers call one registered function, and non-variadic readers and writers of the message types.
        .target(
            name: "CSecretServiceBus", dependencies: ["CSystemdBus", "CSystemdLoader"],
            path: "Sources/CShims/CSecretServiceBus"),
        // The modular exponentiation of the Secret Service's Diffie-Hellman sessions, on OpenSSL's libcrypto
        // (apt: libssl-dev), constant-time in the private exponent.
        .target(name: "CSecretServiceDH", dependencies: ["CLibCryptoLoader"], path: "Sources/CShims/CSecretServiceDH"),
        // A freedesktop Secret Service provider (org.freedesktop.secrets) over KeychainClient: items are Coffer
        // generic-password items; the bus runs on a thread of its own.
        .target(
            name: "SecretService",
            dependencies: [
                "CSecretServiceBus", "CSystemdBus", "CSecretServiceDH", "KeychainClient", "KeychainModel", "KeychainOperations", "Query",
                "ProgramIdentity", "CofferDiagnostics",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Integrations/SecretService"),
        // The sync server's side: the schema Coffer keeps in a PostgreSQL database, its accounts (a role each, rows
        // kept apart by row-level security) and the connection to it (postgres-nio).
        .target(
            name: "SyncServer",
            dependencies: [
                "CofferTLS", .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            path: "Sources/Sync/SyncServer"),
        // `coffer-sync`, which `coffer sync` runs: a program of its own, so that `coffer` does not load PostgreSQL's
        // client at every start.
        .executableTarget(
            name: "CofferSync",
            dependencies: [
                "SyncServer", "SyncClient", "Engine", "Keystore", "KeychainModel", "Query", "BackupFormat", "Prompting",
                "KeychainSelection", "KeychainClient", "KeychainOperations",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Sync/CofferSync"),
        // What the sync server holds, sealed on the devices: records under zone keys, bound to their place.
        .target(
            name: "SyncFormat", dependencies: [.product(name: "Crypto", package: "swift-crypto")], path: "Sources/Sync/SyncFormat"),
        .testTarget(name: "SyncFormatTests", dependencies: ["SyncFormat", .product(name: "Crypto", package: "swift-crypto")]),
        // A keychain's side of sync: joins an account, pulls, applies and pushes records through the engine's ledger.
        .target(
            name: "SyncClient",
            dependencies: [
                "Engine", "ItemStore", "Keystore", "KeychainModel", "Query", "BackupFormat", "SyncFormat", "SyncServer", "CofferRuntime",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Sources/Sync/SyncClient"),
        // `coffer-secret-service`: serves the provider on the session bus, over the keychain the environment selects.
        .executableTarget(
            name: "CofferSecretService",
            dependencies: ["KeychainSelection", "SecretService", "CredentialHelperSupport", "KeychainClient", "KeychainModel", "ProgramIdentity", "Prompting"],
            path: "Sources/Integrations/CofferSecretService"),
        // Sync's figures against a PostgreSQL server (run Benchmarks/sync.sh; release build).
        .executableTarget(
            name: "CofferSyncBenchmarks",
            dependencies: [
                "SyncClient", "SyncServer", "KeychainSelection", "KeychainClient", "KeychainModel", "Engine", "Query",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Benchmarks/CofferSyncBenchmarks"),
        // Benchmarks (run Benchmarks/run.sh; release build).
        .executableTarget(
            name: "CofferBenchmarks",
            dependencies: [
                "Keystore", "KeychainModel", "KeychainOperations", "KeychainService", "CofferDiagnostics", "Engine",
                "KeychainClient", "KeychainSelection", "CofferRuntime", "Query", "Daemon", "ProgramIdentity", "Security", "CCofferSystem", "SSHAgent",
                "Coffer", "ProtectedFileFormat", "TrustedPlatformModule", "CryptoKit",
                .product(name: "Crypto", package: "swift-crypto"), .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "SwiftASN1", package: "swift-asn1"),
            ],
            path: "Benchmarks/CofferBenchmarks"),
        // `cofferd`, the daemon.
        .executableTarget(
            name: "CofferDaemon",
            dependencies: [
                "Daemon", "ProgramIdentity", "Keystore", "TrustedPlatformModule", "KeychainModel", "CCofferSystem", "CofferDiagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/Seam/CofferDaemon"
        ),
        // `coffer lint`: the keychain pitfalls of Apple's SecItem calls found in Swift source, with Query's rules.
        .target(
            name: "CofferLint",
            dependencies: [
                "Query", "KeychainModel", .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"), .product(name: "SwiftOperators", package: "swift-syntax"),
            ],
            path: "Sources/Tools/CofferLint"),
        .executableTarget(
            // Named as its product: a plugin in the same package finds its tool only by the target's name.
            name: "coffer-lint", dependencies: ["CofferLint", .product(name: "ArgumentParser", package: "swift-argument-parser")],
            path: "Sources/Tools/CofferLintCommand"),
        // `swift package coffer-lint`: coffer-lint over the package's targets.
        .plugin(
            name: "CofferLintPlugin",
            capability: .command(
                intent: .custom(verb: "coffer-lint", description: "Find the pitfalls of Apple's keychain calls in the package's Swift sources"),
                permissions: []),
            dependencies: ["coffer-lint"],
            path: "Plugins/CofferLintPlugin"),
        // Test support shared by the test targets (not a product).
        .target(
            name: "CofferTestSupport",
            dependencies: [
                "TrustedPlatformModule", "KeychainSelection", "Daemon", "ProgramIdentity", "KeychainClient", "KeychainModel", "Query", "CofferRuntime",
            ],
            path: "Tests/CofferTestSupport"),
        // How tests start programs: bounded waits, no inherited descriptors, a process group killed at the end.
        .target(name: "CChildProcess", path: "Tests/CChildProcess"),
        .target(name: "TestProcesses", dependencies: ["CChildProcess"], path: "Tests/TestProcesses"),
        // A helper the crash tests start and kill; not installed.
        .executableTarget(
            name: "CofferTestHelper",
            dependencies: [
                "KeychainSelection", "Keystore", "KeychainModel", "KeychainClient", "KeychainOperations", "DaemonProtocol", "Query", "CofferRuntime",
            ],
            path: "Tests/CofferTestHelper"),
        .testTarget(name: "TestProcessesTests", dependencies: ["TestProcesses"]),
        // A private PostgreSQL cluster for the tests that need a sync server (Debian's `postgresql`, installed when
        // missing): started on a socket folder of its own, as the `postgres` user when the tests run as root.
        .target(name: "PostgresFixture", dependencies: ["TestProcesses"], path: "Tests/PostgresFixture"),
        .testTarget(
            name: "SyncServerTests",
            dependencies: [
                "SyncServer", "PostgresFixture", "TestProcesses",
                .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
            ]),
        // Two and three keychains syncing through a private PostgreSQL cluster.
        .testTarget(
            name: "SyncClientTests",
            dependencies: [
                "SyncClient", "SyncServer", "SyncFormat", "Engine", "KeychainSelection", "KeychainModel", "Query", "CofferTestSupport",
                "Coffer", "PostgresFixture", "TestProcesses", .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "X509", package: "swift-certificates"), .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]),
        // Runs the built git-credential-coffer (also through `git credential`) and docker-credential-coffer, on
        // both transports.
        .testTarget(name: "CredentialHelperTests", dependencies: ["TestProcesses"]),
        // Runs the built coffer-secret-service on a private session bus and drives it with secret-tool (libsecret).
        .testTarget(name: "SecretServiceTests", dependencies: ["TestProcesses"], exclude: ["Fixtures"]),
        // The wire codec and the agent's answers, and `coffer ssh-agent` with OpenSSH's own tools (ssh-add, ssh-keygen;
        // openssh-client installed when missing).
        .testTarget(
            name: "SSHAgentTests", dependencies: ["KeychainSelection", "SSHAgent", "KeyCrypto", "KeychainClient", "KeychainModel", "Query", "TestProcesses"]),
        .testTarget(name: "KeychainModelTests", dependencies: ["KeychainModel"]),
        .testTarget(
            name: "KeychainKeysTests",
            dependencies: [
                "KeychainKeys", "KeyCrypto", "KeychainClient", "KeychainModel", "KeychainOperations", "Query",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "CofferRuntimeTests", dependencies: ["CofferRuntime", "CCofferSystem"]),
        // Against files `openssl pkcs12 -export` writes (installed when missing) and RFC 9579's PBMAC1 examples.
        .testTarget(name: "PKCS12Tests", dependencies: ["PKCS12", "KeychainModel", "TestProcesses"]),
        // Against openssl and Python's cryptography (installed when missing), and Apple's ECIES vectors.
        .testTarget(
            name: "KeyCryptoTests",
            dependencies: [
                "KeyCrypto", "KeychainModel", "TestProcesses",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
            ],
            exclude: ["Fixtures"]),
        // Against a fake fprintd (Fixtures/, python3-dbus) on a private dbus-daemon.
        // A private D-Bus with a fake fprintd, for the tests of biometry (not a product).
        .target(name: "FakeFprintd", dependencies: ["TestProcesses"], path: "Tests/FakeFprintd", exclude: ["Fixtures"]),
        .testTarget(name: "BiometryTests", dependencies: ["Biometry", "FakeFprintd", "TestProcesses"]),
        .testTarget(name: "PromptingTests", dependencies: ["Prompting", "KeychainModel"]),
        // A private software TPM (Debian's swtpm, installed when missing) on loopback ports of its own, with
        // tpm2-tools to cross-check what Coffer did to it.
        .target(name: "TPMFixture", dependencies: ["TestProcesses"], path: "Tests/TPMFixture"),
        // The keystore bound to a TPM: sealing, the tangled passcode, recovery, and the TPM's ECC keys against swift-crypto.
        .testTarget(
            name: "TPMTests",
            dependencies: [
                "Keystore", "Daemon", "TrustedPlatformModule", "KeychainModel", "BackupFormat", "TPMFixture", "TestProcesses",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "AuditTrailTests", dependencies: ["AuditTrail", "KeychainOperations", "KeychainModel"]),
        .testTarget(
            name: "KeystoreTests",
            dependencies: ["Keystore", "KeychainModel", "TestProcesses", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "CofferCLITests",
            dependencies: [
                "KeychainSelection", "KeychainModel", "KeychainClient", "CofferCLI", "Query", "TestProcesses", "TPMFixture", "CofferRuntime",
                .product(name: "ArgumentParser", package: "swift-argument-parser"), .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "CofferTests",
            dependencies: [
                "KeychainSelection", "Coffer", "KeychainClient", "KeychainOperations", "KeychainModel", "Keystore", "Query", "CofferTestSupport",
                "TestProcesses", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "DaemonTests",
            dependencies: [
                "KeychainSelection", "Daemon", "ProgramIdentity", "Engine", "KeychainClient", "KeychainOperations", "KeychainService", "DaemonProtocol",
                "Keystore",
                "KeychainModel", "Query", "CofferTestSupport", "TestProcesses", "CofferRuntime", "TPMFixture",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "LocalAuthenticationTests",
            dependencies: [
                "KeychainSelection", "LocalAuthentication", "Security", "CryptoKit", "KeychainClient", "KeychainOperations", "KeychainModel", "Keystore",
                "Query", "CofferTestSupport", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(
            name: "SecurityTests",
            dependencies: [
                "Security", "CryptoKit", "Keystore", "KeychainModel", "Query", "CofferTestSupport", "KeyCrypto", "TestProcesses", "TPMFixture",
                "TrustedPlatformModule", "KeychainSelection", "KeychainOperations", "KeychainKeys",
            ]),
        // Against local TLS servers on 127.0.0.1 (pinned, unpinned, expired, TLS 1.1-only, mutual TLS).
        .testTarget(
            name: "CofferTLSTests",
            dependencies: [
                "CofferTLS", "Security",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
            ]),
        // Client-style code that sees only the Security module: nothing leaks across the boundary.
        .testTarget(name: "SecurityBoundaryTests", dependencies: ["Security", "LocalAuthentication", "TestProcesses", "FakeFprintd"]),
        // Protected files: the format alone, and files through the Swift API on both transports.
        .testTarget(
            name: "ProtectedFileTests",
            dependencies: [
                "KeychainSelection", "Coffer", "ProtectedFileFormat", "KeychainClient", "KeychainOperations", "KeychainModel", "Keystore",
                "CofferTestSupport", "TestProcesses", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        // Backups: the format alone, and backup and restore through the Swift API and the CLI on both transports.
        .testTarget(
            name: "BackupTests",
            dependencies: [
                "KeychainSelection", "Coffer", "BackupFormat", "KeychainClient", "KeychainOperations", "KeychainModel", "Keystore", "Query", "Engine",
                "CofferTestSupport", "TestProcesses", .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "DaemonProtocolTests", dependencies: ["DaemonProtocol", "KeychainOperations", "Query", "KeychainModel"]),
        .testTarget(name: "QueryTests", dependencies: ["Query", "KeychainModel"]),
        .testTarget(name: "CofferLintTests", dependencies: ["CofferLint", "Query", "KeychainModel"], exclude: ["Fixtures"]),
        .testTarget(
            name: "AccessControlTests",
            dependencies: ["KeychainSelection", "KeychainClient", "KeychainService", "KeychainOperations", "KeychainModel", "Query", "Keystore"]),
        .testTarget(
            name: "KeychainServiceTests",
            dependencies: [
                "KeychainService", "CCofferSystem", "KeychainModel", "KeychainOperations", "Keystore", "Query", "KeyCrypto",
                .product(name: "Crypto", package: "swift-crypto"),
            ]),
        .testTarget(name: "ItemStoreTests", dependencies: ["ItemStore", "KeychainModel", "TestProcesses", .product(name: "Crypto", package: "swift-crypto")]),
        .testTarget(
            name: "EngineTests",
            dependencies: [
                "KeychainSelection", "Engine", "KeychainClient", "KeychainOperations", "KeychainService", "Query", "Keystore", "KeychainModel",
                "ItemStore", "CofferTestSupport", "TestProcesses", "BackupFormat",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ]
)

// Release executables export none of their own symbols. Linking the Swift standard library statically adds
// `-export-dynamic`, which put ~26,000 symbols in each executable's dynamic symbol table: every start then paid for
// them (the runtime's `dladdr` at start scans that table, and every binding the loader resolves looks there first).
// Nothing loads a Swift library into these programs, so nothing needs them (BENCHMARKS.md, issue #36).
for target in package.targets where target.type == .executable {
    target.linkerSettings = (target.linkerSettings ?? []) + [.unsafeFlags(["-Xlinker", "--no-export-dynamic"], .when(configuration: .release))]
}
