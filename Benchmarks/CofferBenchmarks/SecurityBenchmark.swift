import Foundation
import KeychainSelection
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
        // Taken in turns of 50 (`ItemsBenchmark.interleaved`), so that the machine's slow spells hit both alike.
        let samples = try SecurityTesting.withKeychain(at: folder.url) {
            try ItemsBenchmark.interleaved(
                operations,
                [
                    { try clientFind(keychain, account: accounts.next()) },
                    { try appleFind(account: accounts.next()) },
                ])
        }
        let (client, apple) = (samples[0], samples[1])
        try? FileManager.default.removeItem(at: folder.url)
        return [
            .init(size: size, operation: "find (data) through the client API", samples: client),
            .init(size: size, operation: "find (data) through `SecItemCopyMatching`", samples: apple),
        ]
    }

    /// Finds on a 1 000-item keychain for `seconds`, in turns of 1 000: through the client API, then through
    /// `SecItemCopyMatching` as the timed find makes it; a steady loop for a profiler, printing how many of each
    /// it made. Each find is one call of ``clientFind(_:account:)`` or ``appleFind(account:)``, so that an
    /// instruction counter (`Benchmarks/instructions.sh`) gives the cost of one.
    static func findLoop(in scratch: URL, seconds: Int) throws {
        let folder = KeychainFolder(url: scratch.appendingPathComponent("security-loop"))
        let keychain = EmbeddedKeychain(folder: folder, caller: .init(accessGroups: .unrestricted(defaultGroup: "bench")))
        try ItemsBenchmark.populate(keychain, count: 1_000)
        var (client, apple) = (0, 0)
        try SecurityTesting.withKeychain(at: folder.url) {
            // The shared keychain opens its engine on its first call: each side's first find is made here, outside
            // the finds counted.
            var warmUp: CFTypeRef?
            let first: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
                kSecAttrAccount as String: "account-0", kSecReturnData as String: true,
            ]
            precondition(SecItemCopyMatching(first as CFDictionary, &warmUp) == errSecSuccess, "the warm-up search found nothing")
            _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(0, returning: "r_Data"))
            let end = ContinuousClock.now + .seconds(seconds)
            var accounts = ItemsBenchmark.RandomAccounts(count: 1_000)
            while ContinuousClock.now < end {
                for _ in 0..<1_000 { try clientFind(keychain, account: accounts.next()) }
                for _ in 0..<1_000 { try appleFind(account: accounts.next()) }
                client += 1_000
                apple += 1_000
            }
        }
        print("security loop: \(client) finds through the client API, \(apple) through SecItemCopyMatching")
    }

    /// One find (data) through the client API, as the timed one.
    @inline(never)
    static func clientFind(_ keychain: EmbeddedKeychain, account: Int) throws {
        _ = try keychain.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
    }

    /// One find (data) as Apple code makes it: a Foundation dictionary, `SecItemCopyMatching`, and the result
    /// read back as `Data`.
    @inline(never)
    static func appleFind(account: Int) throws {
        var result: CFTypeRef?
        let query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: "bench",
            kSecAttrAccount as String: "account-\(account)", kSecReturnData as String: true,
        ]
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        guard status == errSecSuccess, result as? Data != nil else { throw KeychainStatus(code: status) }
    }
}
