import Foundation
import KeychainClient
import KeychainModel
import Query
@_spi(Testing) import Security

/// A find as Apple code makes it, `SecItemCopyMatching` with Foundation dictionaries, next to the same
/// find through the client API the other benchmarks use, on one keychain of `size` items.
enum SecurityBenchmark {
    static func run(in scratch: URL, size: Int, operations: Int) throws -> [ItemsBenchmark.Row] {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("security-\(size)"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        try ItemsBenchmark.populate(keychain, count: size)
        var accounts = ItemsBenchmark.RandomAccounts(count: size)
        // Taken in turn, one of each after the other, so that the machine's slow spells hit both alike.
        let samples = try SecurityTesting.withKeychain(at: folder.url) {
            try ItemsBenchmark.interleaved(operations, [
                { _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(accounts.next(), returning: "r_Data")) },
                {
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword,
                        kSecAttrService as String: "bench",
                        kSecAttrAccount as String: "account-\(accounts.next())",
                        kSecReturnData as String: true,
                    ]
                    var result: CFTypeRef?
                    let status = SecItemCopyMatching(query as CFDictionary, &result)
                    guard status == errSecSuccess, result as? Data != nil else { throw KeychainStatus(code: status) }
                },
            ])
        }
        let (client, apple) = (samples[0], samples[1])
        try? FileManager.default.removeItem(at: folder.url)
        return [
            .init(size: size, operation: "find (data) through the client API", samples: client),
            .init(size: size, operation: "find (data) through `SecItemCopyMatching`", samples: apple),
        ]
    }

    /// `SecItemCopyMatching` on a 1 000-item keychain for `seconds`, as the timed find makes it: a steady loop
    /// for a profiler.
    static func findLoop(in scratch: URL, seconds: Int) throws {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("security-loop"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        try ItemsBenchmark.populate(keychain, count: 1_000)
        try SecurityTesting.withKeychain(at: folder.url) {
            let end = ContinuousClock.now + .seconds(seconds)
            var accounts = ItemsBenchmark.RandomAccounts(count: 1_000)
            while ContinuousClock.now < end {
                for _ in 0..<1_000 {
                    var result: CFTypeRef?
                    let query: [String: Any] = [
                        kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
                        kSecAttrAccount as String: "account-\(accounts.next())", kSecReturnData as String: true,
                    ]
                    // As the timed find: the caller reads the result back as `Data`.
                    guard SecItemCopyMatching(query as CFDictionary, &result) == errSecSuccess, result as? Data != nil else {
                        throw KeychainStatus.itemNotFound
                    }
                }
            }
        }
    }
}
