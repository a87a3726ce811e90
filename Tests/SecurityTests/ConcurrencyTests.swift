import Foundation
import Security
import Testing

/// The module may be called from any thread at once: calls run in parallel on Swift's cooperative pool.
@Suite(.timeLimit(.minutes(10))) struct ConcurrencyTests {
    @Test func parallelCallsAllSucceed() async throws {
        let count = 40
        try await withFreshKeychain {
            let outcomes = await withTaskGroup(of: Bool.self) { group in
                for index in 0..<count {
                    group.addTask {
                        let added = SecItemAdd(password("item-\(index)") as CFDictionary, nil)
                        var result: CFTypeRef?
                        let query = search("item-\(index)", [kSecReturnData as String: true])
                        let found = SecItemCopyMatching(query as CFDictionary, &result)
                        return added == errSecSuccess && found == errSecSuccess && result as? Data == Data("pw".utf8)
                    }
                }
                return await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.count == count && outcomes.allSatisfy { $0 })
            var all: CFTypeRef?
            let query: [String: Any] = [
                kSecClass as String: kSecClassGenericPassword, kSecMatchLimit as String: kSecMatchLimitAll,
                kSecReturnAttributes as String: true,
            ]
            #expect(SecItemCopyMatching(query as CFDictionary, &all) == errSecSuccess)
            #expect((all as? [[String: Any]])?.count == count)
        }
    }
}
