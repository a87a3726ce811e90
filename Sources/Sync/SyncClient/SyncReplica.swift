import BackupFormat
import CofferRuntime
import Engine
import Foundation
import ItemStore
import KeychainModel
import Logging
import Query
import SyncFormat
import SyncServer

/// One keychain's side of an account: brings the device log and the account keys up to date, pulls what other devices
/// wrote, applies it, and sends what was written here, until both sides agree.
struct SyncReplica {
    let engine: KeychainEngine
    var account: LocalAccount
    let session: SyncServerSession
    let logger: Logger
    let workers: WorkerThreads
    var report = SyncReport()
    /// Told the report so far after each page pulled, batch applied and batch sent (a long first sync shows progress).
    var progress: (@Sendable (SyncReport) -> Void)?
    /// The cursors this device told the server in earlier runs on the same connection (background sync's): a zone's
    /// cursor is told again, and its tombstones collected, only when it moved. Nil: every zone's is told.
    var reportedCursors: [UUID: Int64]?
    private var knownZones: Set<UUID> = []
    /// Queued records and local changes of a locked class, as the last round found them.
    private var waitingIncoming = 0
    private var waitingOutgoing = 0

    init(engine: KeychainEngine, account: LocalAccount, session: SyncServerSession, logger: Logger, workers: WorkerThreads) {
        self.engine = engine
        self.workers = workers
        self.account = account
        self.session = session
        self.logger = logger
    }

    /// A whole run: trust, then pull, apply and push until a round sends nothing (at most four rounds: a round that
    /// sent pulls its own writes back, so the cursor passes them), then cursors and tombstone collection. With
    /// `replayingTheLogOnlyWhenItChanged` (background sync's frequent runs), the device log is replayed only when its
    /// last entry is no longer the one this device verified.
    mutating func run(replayingTheLogOnlyWhenItChanged: Bool = false) async throws(SyncError) {
        if replayingTheLogOnlyWhenItChanged { try await checkTrust() } else { try await refreshTrust() }
        knownZones = Set(try await SyncError.server { try await session.zones() })
        for _ in 0..<4 {
            try await pull()
            try await applyQueue()
            let sentBefore = report.sent
            let conflicted = try await push()
            guard conflicted || report.sent > sentBefore else { break }
        }
        report.waiting = waitingIncoming + waitingOutgoing
        for zone in knownZones where zone != AccountKeys.shareZone {
            let cursor = try await ledger { try $0.syncCursor(zone: zone) }
            // Tombstones are collected by the run that moves the last cursor past them, so a cursor that stayed has
            // nothing to add.
            if reportedCursors?[zone] == cursor { continue }
            reportedCursors?[zone] = cursor
            try await SyncError.server { try await session.setCursor(device: account.device.publicIdentity.id, zone: zone, change: cursor) }
            report.collected += try await SyncError.server { try await session.collectTombstones(zone: zone) }
        }
    }

    // MARK: Trust

    /// Replays the device log from the account's anchor (refusing a forged, reordered or rolled-back log), checks this
    /// device is still trusted, and opens any new account key shared to it. Returns the log, as verified.
    @discardableResult
    mutating func refreshTrust() async throws(SyncError) -> DeviceLog {
        let log = try await verifiedLog()
        guard log.trusted[account.device.publicIdentity.id] != nil else {
            throw .untrustedServer("this device was removed from the account (or the server claims it was)")
        }
        try await openNewKeyShares(head: log.head)
        return log
    }

    /// ``refreshTrust()`` when the log changed since this device verified it; else only the new key shares are opened.
    /// A log whose last entry is still the head this device verified holds nothing it has not checked: any other
    /// change (an entry added, removed or altered at the head) replays and checks the whole log.
    mutating func checkTrust() async throws(SyncError) {
        let tail = try await SyncError.server { try await session.deviceLog(after: account.head.position - 1) }
        guard tail.count == 1, tail[0].position == account.head.position, (try? DeviceLogEntry(encoded: tail[0].entry))?.hash == account.head.hash
        else {
            try await refreshTrust()
            return
        }
        try await openNewKeyShares(head: account.head)
    }

    /// Opens the account keys shared to this device that it does not have yet, and stores them with `head` when
    /// either changed.
    private mutating func openNewKeyShares(head: (position: Int64, hash: Data)) async throws(SyncError) {
        let shares = try await SyncError.server { try await session.keyShares(zone: AccountKeys.shareZone, device: account.device.publicIdentity.id) }
        var changed = head.position != account.head.position || head.hash != account.head.hash
        for (version, share) in shares where account.keys.versions[version] == nil {
            do {
                account.keys.add(try account.device.openKeyShare(share, zone: AccountKeys.shareZone, keyVersion: version))
                changed = true
            } catch {
                throw .untrustedServer("the account key share of version \(version) does not open")
            }
        }
        account.head = head
        if changed {
            let settings = try account.trustSettings(sealedBy: engine)
            try await ledger { try $0.setSyncSettings(settings) }
        }
    }

    /// The device log, replayed and checked against the anchor and the head this device saw last.
    func verifiedLog() async throws(SyncError) -> DeviceLog {
        let raw = try await SyncError.server { try await session.deviceLog() }
        do {
            let entries = try raw.map { try DeviceLogEntry(encoded: $0.entry) }
            return try DeviceLog(replaying: entries, anchor: account.anchor, knownHead: account.head)
        } catch {
            throw .untrustedServer("the device log: \(error)")
        }
    }

    // MARK: Pull

    /// Pulls every zone's changes after its cursor into the queue, durably, page by page.
    mutating func pull() async throws(SyncError) {
        for zone in try await SyncError.server({ try await session.zones() }) where zone != AccountKeys.shareZone {
            knownZones.insert(zone)
            var cursor = try await ledger { try $0.syncCursor(zone: zone) }
            while true {
                let page = try await SyncError.server { try await session.changes(zone: zone, after: cursor, limit: 1_000) }
                guard let last = page.last else { break }
                let records = page.map {
                    IncomingRecord(zone: $0.zone, record: $0.record, version: $0.version, change: $0.change, deleted: $0.deleted, sealed: $0.sealed)
                }
                try await ledger { try $0.receiveSyncRecords(records, zone: zone, cursor: last.change) }
                report.received += records.count
                progress?(report)
                cursor = last.change
                if page.count < 1_000 { break }
            }
        }
    }

    /// Applies the queued records it can; a record of a locked class, or sealed under a key this device does not
    /// have yet, stays queued.
    mutating func applyQueue() async throws(SyncError) {
        var waiting = 0
        let queued = try await ledger { try $0.queuedSyncRecords(limit: 100_000) }
        var batch: [(IncomingRecord, BackupRecord?)] = []
        for incoming in queued {
            do {
                batch.append((incoming, try open(incoming)))
            } catch .unknownKeyVersion {
                waiting += 1
            } catch {
                logger.warning("refusing a record the server sent", metadata: ["reason": "\(error)"])
                report.refused += 1
                try await ledger { try $0.dropIncoming(incoming) }
            }
            if batch.count == 200 { waiting += try await apply(batch) }
            if batch.count == 200 { batch.removeAll() }
        }
        if !batch.isEmpty { waiting += try await apply(batch) }
        waitingIncoming = waiting
    }

    /// Applies opened records in one transaction; returns how many wait for an unlock.
    private mutating func apply(_ batch: [(IncomingRecord, BackupRecord?)]) async throws(SyncError) -> Int {
        var waiting = 0
        defer { progress?(report) }
        for outcome in try await ledger({ try $0.applyIncoming(batch) }) {
            switch outcome {
            case .applied: report.applied += 1
            case .alreadyCurrent: break
            case .waitingForUnlock: waiting += 1
            case .primaryKeyConflict, .replacedUnsentChange:
                report.applied += 1
                report.conflicts += 1
            case .refused(let reason):
                logger.warning("refusing a record the server sent", metadata: ["reason": "\(reason)"])
                report.refused += 1
            }
        }
        return waiting
    }

    /// The content of `incoming` (nil for a tombstone), if it opens for its claimed place.
    private func open(_ incoming: IncomingRecord) throws(SealedRecordError) -> BackupRecord? {
        let place = RecordPlace(zone: incoming.zone, record: incoming.record, version: incoming.version, deleted: incoming.deleted)
        let content = SecretBytes(copying: try RecordSeal.open(incoming.sealed, at: place, zoneKeys: account.keys.zoneKeys(incoming.zone)))
        guard !incoming.deleted else { return nil }
        do {
            let record = try SyncRecordContent.record(from: content)
            let attributes = try AttributeSet(decoding: record.attributes)
            guard case .string(let group)? = attributes[QueryKey.accessGroup], account.keys.zone(forAccessGroup: group) == incoming.zone else {
                throw SealedRecordError.tampered
            }
            return record
        } catch {
            throw .tampered
        }
    }

    // MARK: Push

    /// Sends every pending local change, a page at a time, each zone's writes of a page in one server transaction;
    /// returns whether one met a newer version on the server (pull again).
    mutating func push() async throws(SyncError) -> Bool {
        var after: Int64 = 0
        var conflicted = false
        waitingOutgoing = 0
        while true {
            let from = after
            let page = try await ledger { try $0.outgoingChanges(after: from, limit: 500) }
            var byZone: [UUID: [PreparedWrite]] = [:]
            for change in page.changes {
                if let prepared = try prepare(change) {
                    byZone[prepared.zone, default: []].append(prepared)
                } else if try await !send(change) {
                    conflicted = true
                }
            }
            for (zone, writes) in byZone where try await !send(writes, zone: zone) { conflicted = true }
            waitingOutgoing += page.locked
            guard page.last > after else { break }
            after = page.last
        }
        return conflicted
    }

    /// A change that goes out as one write in its zone's batch.
    struct PreparedWrite {
        let change: OutgoingChange
        let zone: UUID
        let request: RecordWriteRequest
        let itemClass: ItemClass
    }

    /// The write `change` makes, sealed; nil when it needs more than one write (an item that moved to another zone),
    /// which ``send(_:)`` makes on its own.
    private func prepare(_ change: OutgoingChange) throws(SyncError) -> PreparedWrite? {
        guard let item = change.item else {
            guard let mirror = change.mirror else { return nil }
            let place = RecordPlace(zone: mirror.zone, record: mirror.record, version: mirror.version + 1, deleted: true)
            let request = RecordWriteRequest(
                record: mirror.record, expectedVersion: mirror.version, sealed: try seal(tombstoneContent(of: mirror), at: place), deleted: true)
            return PreparedWrite(change: change, zone: mirror.zone, request: request, itemClass: mirror.itemClass)
        }
        guard let zone = zone(of: item) else { return nil }
        if let mirror = change.mirror, mirror.version > 0, mirror.zone != zone { return nil }
        let record = change.mirror?.record ?? UUID()
        let expected = (change.mirror?.version ?? 0) > 0 ? change.mirror?.version : nil
        let place = RecordPlace(zone: zone, record: record, version: (expected ?? 0) + 1, deleted: false)
        let request = RecordWriteRequest(
            record: record, expectedVersion: expected, sealed: try seal(SyncRecordContent.content(of: item), at: place), deleted: false)
        return PreparedWrite(change: change, zone: zone, request: request, itemClass: item.itemClass)
    }

    /// Writes a zone's batch and records what was sent; false when one met a newer version.
    private mutating func send(_ writes: [PreparedWrite], zone: UUID) async throws(SyncError) -> Bool {
        try await ensureZone(zone)
        var conflicted = false
        for start in stride(from: 0, to: writes.count, by: 200) {
            let chunk = Array(writes[start..<min(start + 200, writes.count)])
            let outcomes = try await SyncError.server { try await session.write(zone: zone, chunk.map(\.request)) }
            var sent: [(OutgoingChange, MirroredRecord?)] = []
            for (write, outcome) in zip(chunk, outcomes) {
                switch outcome {
                case .written(let version, _):
                    let entry = MirroredRecord(
                        record: write.request.record, zone: zone, persistentRef: write.request.deleted ? nil : write.change.pending.persistentRef,
                        itemClass: write.itemClass, version: version, deleted: write.request.deleted, sealed: write.request.sealed)
                    sent.append((write.change, entry))
                    report.sent += 1
                case .conflict(nil) where write.request.deleted:
                    // Already collected on the server: nothing left to delete.
                    sent.append((write.change, nil))
                case .conflict:
                    conflicted = true
                }
            }
            let recorded = sent
            if !recorded.isEmpty { try await ledger { try $0.recordSent(recorded) } }
            progress?(report)
        }
        return !conflicted
    }

    /// The zone of `item`'s access group; nil when its attributes do not decode.
    private func zone(of item: BackupRecord) -> UUID? {
        guard case .string(let group)? = try? AttributeSet(decoding: item.attributes)[QueryKey.accessGroup] else {
            logger.error("cannot send an item whose attributes do not decode")
            return nil
        }
        return account.keys.zone(forAccessGroup: group)
    }

    /// Writes one change to the server; false when the server has a newer version of the record.
    private mutating func send(_ change: OutgoingChange) async throws(SyncError) -> Bool {
        guard let item = change.item else {
            guard let mirror = change.mirror else { return true }
            return try await sendTombstone(of: mirror, for: change)
        }
        let zone: UUID
        do {
            guard case .string(let group)? = try AttributeSet(decoding: item.attributes)[QueryKey.accessGroup] else {
                throw SyncError.damaged("an item without an access group")
            }
            zone = account.keys.zone(forAccessGroup: group)
        } catch {
            logger.error("cannot send an item whose attributes do not decode")
            return true
        }
        var reused = change.mirror
        if let mirror = change.mirror, mirror.version > 0, mirror.zone != zone {
            // The item moved to another access group: its old record goes, a new one is written in the new zone.
            if try await !sendTombstone(of: mirror, for: nil) { return false }
            reused = nil
        }
        try await ensureZone(zone)
        let record = reused?.record ?? UUID()
        let expected = (reused?.version ?? 0) > 0 ? reused?.version : nil
        let place = RecordPlace(zone: zone, record: record, version: (expected ?? 0) + 1, deleted: false)
        let sealed = try seal(SyncRecordContent.content(of: item), at: place)
        switch try await SyncError.server({ try await session.write(zone: zone, record: record, expectedVersion: expected, sealed: sealed) }) {
        case .written(let version, _):
            let entry = MirroredRecord(
                record: record, zone: zone, persistentRef: change.pending.persistentRef, itemClass: item.itemClass, version: version,
                deleted: false, sealed: sealed)
            try await ledger { try $0.recordSent(change, as: entry) }
            report.sent += 1
            return true
        case .conflict:
            return false
        }
    }

    /// Replaces `mirror`'s record on the server by its tombstone; `change`, when given, is then recorded as sent.
    private mutating func sendTombstone(of mirror: MirroredRecord, for change: OutgoingChange?) async throws(SyncError) -> Bool {
        let place = RecordPlace(zone: mirror.zone, record: mirror.record, version: mirror.version + 1, deleted: true)
        let sealed = try seal(tombstoneContent(of: mirror), at: place)
        let outcome = try await SyncError.server {
            try await session.write(zone: mirror.zone, record: mirror.record, expectedVersion: mirror.version, sealed: sealed, deleted: true)
        }
        switch outcome {
        case .written(let version, _):
            var entry = mirror
            entry.persistentRef = nil
            entry.version = version
            entry.deleted = true
            entry.sealed = sealed
            let tombstone = entry
            if let change { try await ledger { try $0.recordSent(change, as: tombstone) } }
            report.sent += 1
            return true
        case .conflict(let current):
            guard current == nil else { return false }
            // Already collected on the server: nothing left to delete.
            if let change { try await ledger { try $0.recordSent(change, as: nil) } }
            return true
        }
    }

    /// A tombstone's content: the primary key and dates of the record it replaces, when this device can still open it.
    private func tombstoneContent(of mirror: MirroredRecord) -> SecretBytes {
        let place = RecordPlace(zone: mirror.zone, record: mirror.record, version: mirror.version, deleted: mirror.deleted)
        if let opened = try? RecordSeal.open(mirror.sealed, at: place, zoneKeys: account.keys.zoneKeys(mirror.zone)),
            let record = try? SyncRecordContent.record(from: SecretBytes(copying: opened)),
            let tombstone = try? SyncRecordContent.tombstone(of: record)
        {
            return SyncRecordContent.content(of: tombstone)
        }
        return SyncRecordContent.content(
            of: BackupRecord(itemClass: mirror.itemClass, protection: .afterFirstUnlock, attributes: AttributeSet().encoded(), secret: nil))
    }

    private func seal(_ content: SecretBytes, at place: RecordPlace) throws(SyncError) -> Data {
        guard let key = account.keys.zoneKeys(place.zone)[account.keys.current] else { throw .damaged("no current account key") }
        do {
            return try content.withUnsafeBytes { try RecordSeal.seal(Data($0), at: place, with: key) }
        } catch {
            throw .damaged("cannot seal a record: \(error)")
        }
    }

    /// Runs `body` with the engine on one of the keychain's worker threads (SQLite and its `fsync` never block the
    /// cooperative pool), turning its refusal into a ``SyncError``.
    func ledger<T: Sendable>(_ body: @escaping @Sendable (KeychainEngine) throws -> T) async throws(SyncError) -> T {
        let engine = engine
        let result: Result<T, SyncError> = await workers.run(
            {
                do throws(SyncError) {
                    return .success(try SyncError.mapping { try body(engine) })
                } catch {
                    return .failure(error)
                }
            }, whenCancelled: .failure(.server("cancelled")))
        return try result.get()
    }

    private mutating func ensureZone(_ zone: UUID) async throws(SyncError) {
        guard !knownZones.contains(zone) else { return }
        try await SyncError.server { try await session.createZone(zone) }
        knownZones.insert(zone)
    }

}
