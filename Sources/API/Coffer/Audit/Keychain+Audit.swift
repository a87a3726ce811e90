import KeychainClient
import KeychainModel
import KeychainOperations

/// The audit journal: which program read, wrote or deleted which item, and when. Reading it is the keychain owner's:
/// `passcode` is the keychain's passcode when one is set (nil otherwise).
extension Keychain {
    /// The journal's records after `sequence`, oldest first; with `follow`, then each new record as it is written
    /// (read again every `pollInterval`), until the consuming task stops. A failed read ends the stream with the
    /// ``KeychainError``: a wrong passcode, or a journal too damaged to read (``verifyAuditJournal(passcode:)``
    /// says where).
    public func auditRecords(
        after sequence: UInt64 = 0, passcode: SecretBytes? = nil, follow: Bool = false, pollInterval: Duration = .seconds(1)
    ) -> AsyncThrowingStream<AuditRecord, any Error> {
        let keychain = self
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: AuditRecord.self)
        let task = Task {
            var after = sequence
            while !Task.isCancelled {
                let page: AuditPage
                do {
                    page = try await keychain.auditPage(AuditRead(passcode: passcode, after: after))
                } catch {
                    if !Task.isCancelled { continuation.finish(throwing: error) }
                    return
                }
                for record in page.records { continuation.yield(record) }
                after = page.records.last?.sequence ?? after
                if page.hasMore { continue }
                guard follow else { break }
                try? await Task.sleep(for: pollInterval)
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    /// Whether every kept record of the journal opens and follows the one before it, up to the last written; or
    /// the first place where one does not.
    public func verifyAuditJournal(passcode: SecretBytes? = nil) async throws(KeychainError) -> AuditCheck {
        let page = try await auditPage(AuditRead(passcode: passcode, after: UInt64.max, limit: 1, verify: true))
        guard let check = page.check else { throw KeychainError(status: .internal, operation: .auditRecords, reason: nil) }
        return check
    }

    private func auditPage(_ read: AuditRead) async throws(KeychainError) -> AuditPage {
        do {
            return try await client.auditRecords(read)
        } catch {
            throw KeychainError(status: error.status, operation: .auditRecords, reason: error.reason.map(KeychainError.sentence))
        }
    }
}
