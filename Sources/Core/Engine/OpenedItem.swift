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
    /// Whether an item was left out because it needs authentication the call does not have (UI Skip).
    var skipped = false
}

/// How a search opens the rows it selects.
struct RowOpening {
    /// Whether secrets are loaded.
    var loadData: Bool
    /// Whether every filter was answered by the blind index (a row that does not match is then tampered).
    var fullyIndexed: Bool
    /// For reads: who decides about access-controlled items.
    var gate: ItemGate?
    /// Whether a match keeps only its row's identity (a search that returns persistent references or nothing):
    /// neither its attributes nor its sealed parts are kept.
    var keepsOnlyIdentity = false
}

extension KeychainEngine {
    /// Selects the rows a search may match and opens them.
    ///
    /// A row whose class key is locked fails the whole call with -25308 (rule C5). A row that is
    /// corrupt, or whose class key is destroyed, is reported and skipped (§10.7). A row whose
    /// decrypted attributes do not satisfy the search is skipped; when every filter was answered by
    /// the blind index, such a row means the index columns were tampered with, and it is treated as corrupt.
    ///
    /// With an `authorization`, the call reads: an item whose access control constrains reading is opened,
    /// skipped or refused as ``ItemGate`` decides, and a secret sealed with an application password is
    /// opened with the authorization's password. Without one (a delete), access control is not consulted
    /// and no secret is loaded. With `keepingOnlyIdentity`, each match keeps only its row's identity
    /// (``StoredItem/identityOnly``) and empty attributes.
    func openMatches(
        _ search: SearchRequest, caller: CallerContext, limit: Int?, loadData: Bool, reader: some ItemReading,
        authorization: ItemAuthorization? = nil, keepingOnlyIdentity: Bool = false
    ) throws -> SearchOutcome {
        let fullyIndexed = ItemIndexing.isFullyIndexed(search)
        let sqlLimit = fullyIndexed ? limit : nil
        let opening = RowOpening(
            loadData: loadData, fullyIndexed: fullyIndexed,
            gate: authorization.map { ItemGate(authorization: $0, ui: search.authenticationUI) },
            keepsOnlyIdentity: keepingOnlyIdentity && !loadData)
        var outcome = try openRows(search, caller: caller, sqlLimit: sqlLimit, reader: reader, opening: opening)
        if sqlLimit != nil, !outcome.undecryptable.isEmpty || outcome.skipped {
            // Skipped rows ate into the SQL limit: look again without it.
            outcome = try openRows(search, caller: caller, sqlLimit: nil, reader: reader, opening: opening)
        }
        if let limit, outcome.matches.count > limit { outcome.matches.removeLast(outcome.matches.count - limit) }
        return outcome
    }

    private func openRows(
        _ search: SearchRequest, caller: CallerContext, sqlLimit: Int?, reader: some ItemReading, opening: RowOpening
    ) throws -> SearchOutcome {
        var outcome = SearchOutcome()
        let selection = ItemIndexing.selection(for: search, caller: caller, limit: sqlLimit)
        try reader.forEachRow(selection) { row in
            do {
                let attributes = try AttributeSet(decoding: reader.openAttributes(row))
                guard search.matches(attributes), matchesHost(search, attributes) else {
                    if opening.fullyIndexed {
                        logger.error(
                            "row's blind index does not match its sealed attributes; skipping it",
                            metadata: ["class": "\(row.itemClass.rawValue)", "row": "\(row.rowID)"])
                        outcome.undecryptable.append(row)
                    }
                    return
                }
                if let gate = opening.gate, try gate.decide(attributes) == .skip {
                    outcome.skipped = true
                    return
                }
                if opening.keepsOnlyIdentity {
                    outcome.matches.append(OpenedItem(stored: row.identityOnly, attributes: AttributeSet(), data: nil))
                    return
                }
                guard opening.loadData else {
                    outcome.matches.append(OpenedItem(stored: row, attributes: attributes, data: nil))
                    return
                }
                let stored = try reader.openSecret(row)
                let shown = ItemDigest.filledIn(attributes, secret: stored, in: row.itemClass)
                let data = try opening.gate?.openSealedSecret(stored, attributes: attributes) ?? stored
                outcome.matches.append(OpenedItem(stored: row, attributes: shown, data: data))
            } catch  where StatusMapping.isLocked(error) {
                throw EngineRefusal(.interactionNotAllowed, .g16, "a matching item's protection class (\(row.protection.rawValue)) is locked")
            } catch  where StatusMapping.isUndecryptable(error) {
                logger.error(
                    "skipping an item that cannot be decrypted", metadata: ["class": "\(row.itemClass.rawValue)", "row": "\(row.rowID)", "reason": "\(error)"])
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
