import KeychainClient

/// Batches of finds (data): through the blocking calls, or through the async client API as the daemon's concurrency
/// goal compares them, the same finds awaited one after another or made from one concurrent task each.
enum FindBatches {
    /// Finds `accounts` one after another through the blocking calls, on the calling thread.
    static func blocking(_ client: some KeychainClient, accounts: [Int]) throws {
        for account in accounts {
            _ = try client.blocking.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
        }
    }

    /// Finds `accounts`, awaiting each before making the next; blocks the calling thread until all are done.
    static func oneAfterAnother(_ client: some KeychainClient, accounts: [Int]) throws {
        try blockUntilDone {
            for account in accounts {
                _ = try await client.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data"))
            }
        }
    }

    /// Finds `accounts` from one task each, all at once; blocks the calling thread until all are done.
    static func concurrently(_ client: some KeychainClient, accounts: [Int]) throws {
        try blockUntilDone {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for account in accounts {
                    group.addTask { _ = try await client.copyMatching(ItemsBenchmark.findQuery(account, returning: "r_Data")) }
                }
                try await group.waitForAll()
            }
        }
    }
}
