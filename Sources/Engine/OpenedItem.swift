import Foundation
import ItemStore
import KeychainModel
import Query

/// A matched row with its decrypted attributes and, when asked for, its secret.
struct OpenedItem {
    let stored: StoredItem
    let attributes: AttributeSet
    let data: Data?
}

/// What a search found: readable matches, and rows that turned out undecryptable (§10.7).
struct SearchOutcome {
    var matches: [OpenedItem] = []
    var undecryptable: [StoredItem] = []
}

extension KeychainEngine {
    /// Selects the rows a search may match and opens them.
    ///
    /// A row whose class key is locked fails the whole call with -25308 (rule C5). A row that is
    /// corrupt, or whose class key is destroyed, is reported and skipped (§10.7). A row whose
    /// decrypted attributes do not satisfy the search is skipped; when every filter was answered by
    /// the blind index, such a row means the index columns were tampered with, and it is treated as corrupt.
    func openMatches(
        _ search: SearchRequest, caller: CallerContext, limit: Int?, loadData: Bool, reader: some ItemReading
    ) throws -> SearchOutcome {
        let fullyIndexed = ItemIndexing.isFullyIndexed(search)
        let sqlLimit = fullyIndexed ? limit : nil
        var outcome = try openRows(search, caller: caller, sqlLimit: sqlLimit, loadData: loadData, reader: reader, fullyIndexed: fullyIndexed)
        if sqlLimit != nil, !outcome.undecryptable.isEmpty {
            // Skipped rows ate into the SQL limit: look again without it.
            outcome = try openRows(search, caller: caller, sqlLimit: nil, loadData: loadData, reader: reader, fullyIndexed: fullyIndexed)
        }
        if let limit, outcome.matches.count > limit { outcome.matches.removeLast(outcome.matches.count - limit) }
        return outcome
    }

    private func openRows(
        _ search: SearchRequest, caller: CallerContext, sqlLimit: Int?, loadData: Bool, reader: some ItemReading,
        fullyIndexed: Bool
    ) throws -> SearchOutcome {
        var outcome = SearchOutcome()
        let selection = ItemIndexing.selection(for: search, caller: caller, limit: sqlLimit)
        for row in try reader.select(selection) {
            do {
                let attributes = try AttributeSet(decoding: reader.openAttributes(row))
                guard search.matches(attributes), matchesHost(search, attributes) else {
                    if fullyIndexed {
                        logger.error("row's blind index does not match its sealed attributes; skipping it", metadata: ["class": "\(row.itemClass.rawValue)", "row": "\(row.rowID)"])
                        outcome.undecryptable.append(row)
                    }
                    continue
                }
                let data = loadData ? try reader.openSecret(row) : nil
                let shown = loadData ? ItemDigest.filledIn(attributes, secret: data, in: row.itemClass) : attributes
                outcome.matches.append(OpenedItem(stored: row, attributes: shown, data: data))
            } catch where StatusMapping.isLocked(error) {
                throw KeychainStatus.interactionNotAllowed
            } catch where StatusMapping.isUndecryptable(error) {
                logger.error("skipping an item that cannot be decrypted", metadata: ["class": "\(row.itemClass.rawValue)", "row": "\(row.rowID)", "reason": "\(error)"])
                outcome.undecryptable.append(row)
            }
        }
        return outcome
    }

    /// `kSecMatchHostOrSubdomainOfHost`: `srvr` equals the host or ends with `.host`.
    private func matchesHost(_ search: SearchRequest, _ attributes: AttributeSet) -> Bool {
        guard let host = search.hostOrSubdomainOf else { return true }
        guard case .string(let server)? = attributes[QueryKey.server] else { return false }
        return server == host || server.hasSuffix("." + host)
    }

    /// Deletes rows found undecryptable during a read (Apple deletes them too, §10.7).
    func removeUndecryptable(_ rows: [StoredItem]) {
        guard !rows.isEmpty else { return }
        do {
            let removed = try store.write { writer in try writer.delete(rows) }
            logger.warning("removed undecryptable items", metadata: ["count": "\(removed)"])
        } catch {
            logger.error("could not remove undecryptable items: \(error)")
        }
    }

    /// The snapshot the result shaper reads.
    func snapshot(_ item: OpenedItem) -> ItemSnapshot {
        ItemSnapshot(itemClass: item.stored.itemClass, attributes: item.attributes, data: item.data, persistentRef: persistentReference(item.stored))
    }
}
