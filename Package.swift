// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Coffer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "coffer", targets: ["CofferCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
    ],
    targets: [
        // Shared vocabulary: item classes, protection classes, status codes. No I/O.
        .target(name: "KeychainModel"),
        // Small C shims for what Glibc does not expose to Swift (explicit_bzero, prctl).
        .target(name: "CCofferSystem"),
        // COFFER_LOG handling shared by the executables and the Security module.
        .target(name: "CofferDiagnostics", dependencies: [.product(name: "Logging", package: "swift-log")]),
        // The key hierarchy: device key, passcode KDF, keybag of class keys, lock state, throttling.
        .target(
            name: "Keystore",
            dependencies: [
                "KeychainModel", "CCofferSystem",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The `coffer` command-line tool.
        .executableTarget(
            name: "CofferCLI",
            dependencies: [
                "Keystore", "KeychainModel", "CCofferSystem", "CofferDiagnostics",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Benchmarks (run Benchmarks/run.sh; release build).
        .executableTarget(
            name: "CofferBenchmarks",
            dependencies: ["Keystore", "KeychainModel", "CofferDiagnostics", .product(name: "Crypto", package: "swift-crypto")],
            path: "Benchmarks/CofferBenchmarks"),
        // A helper the crash tests start and kill; not installed.
        .executableTarget(name: "CofferTestHelper", dependencies: ["Keystore"], path: "Tests/CofferTestHelper"),
        .testTarget(name: "KeychainModelTests", dependencies: ["KeychainModel"]),
        .testTarget(name: "KeystoreTests", dependencies: ["Keystore", "KeychainModel"]),
        .testTarget(name: "CofferCLITests", dependencies: ["KeychainModel"]),
    ]
)
