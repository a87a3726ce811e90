/// What an operation is, besides what it carries: the facts every layer decides by, read from one table
/// (``Request/Kind/traits``) so that adding an operation means writing one row.
public struct OperationTraits: Sendable, Hashable {
    /// The first byte of its request payload on the daemon's wire (below 0x80: answers use 0x80 and up).
    public let wireTag: UInt8
    /// Whether running it twice does what running it once does: a client resends only these after a broken
    /// connection; an add or a passcode change might already have taken effect. (A token key made twice is one key
    /// the caller never saw, which nothing stored; so is a file key.)
    public let isIdempotent: Bool
    /// Whether it may wait for a person before it is answered, so that a client gives it a long reply time-out
    /// rather than take a slow answer for a stalled daemon: the requests that carry or will ask for the passcode
    /// (answered through a trusted prompt, and held by the keystore for the failed-attempt delay), a backup's export
    /// and restore, and a bulk add, which take seconds. Item requests never wait: an item that needs the person is
    /// answered with ``Response/authenticationNeeded(_:)``, and the client's ``Request/authenticate(_:)`` waits.
    public let mayWaitForPerson: Bool
    /// Whether the daemon serves it only to a trusted front end (the `coffer` command and its prompt agent): as on
    /// iOS, where no app sees the device passcode, the passcode, locking, the program registry, the prompt agent's
    /// part and a backup's export stay with them.
    public let isReservedToTrustedFrontEnds: Bool
    /// Whether it may make the keychain's files grow, so that the daemon checks the storage quota first: item adds
    /// and updates, registering a program, a restore and each part staged for it. Deletes, unlocks, locks and
    /// passcode changes never count, so a user at the quota can always make room and unlock.
    public let growsStorage: Bool

    /// A row of the table: every trait false unless named.
    init(
        wireTag: UInt8, idempotent: Bool = false, mayWaitForPerson: Bool = false, reservedToTrustedFrontEnds: Bool = false,
        growsStorage: Bool = false
    ) {
        self.wireTag = wireTag
        isIdempotent = idempotent
        self.mayWaitForPerson = mayWaitForPerson
        isReservedToTrustedFrontEnds = reservedToTrustedFrontEnds
        self.growsStorage = growsStorage
    }
}

extension Request.Kind {
    /// The operation's traits: the one table of them.
    public var traits: OperationTraits {
        switch self {
        case .add: OperationTraits(wireTag: 0x01, growsStorage: true)
        case .addEach: OperationTraits(wireTag: 0x05, mayWaitForPerson: true, growsStorage: true)
        case .copyMatching: OperationTraits(wireTag: 0x02, idempotent: true)
        case .update: OperationTraits(wireTag: 0x03, growsStorage: true)
        case .delete: OperationTraits(wireTag: 0x04)
        case .lockStatus: OperationTraits(wireTag: 0x10, idempotent: true)
        case .unlock: OperationTraits(wireTag: 0x11, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .lock: OperationTraits(wireTag: 0x12, idempotent: true, reservedToTrustedFrontEnds: true)
        case .appsList: OperationTraits(wireTag: 0x20, idempotent: true)
        case .appsAdd: OperationTraits(wireTag: 0x21, mayWaitForPerson: true, reservedToTrustedFrontEnds: true, growsStorage: true)
        case .appsRemove: OperationTraits(wireTag: 0x22, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .setPasscode: OperationTraits(wireTag: 0x13, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .changePasscode: OperationTraits(wireTag: 0x14, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .removePasscode: OperationTraits(wireTag: 0x15, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .setEraseAfterFailedAttempts: OperationTraits(wireTag: 0x16, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .deviceKeyBinding: OperationTraits(wireTag: 0x17, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .unlockWithPrompt: OperationTraits(wireTag: 0x30, mayWaitForPerson: true)
        case .awaitPrompt: OperationTraits(wireTag: 0x31, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .answerPrompt: OperationTraits(wireTag: 0x32, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .proveOwner: OperationTraits(wireTag: 0x33, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .proveOwnerWithPrompt: OperationTraits(wireTag: 0x34, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .authenticate: OperationTraits(wireTag: 0x40, mayWaitForPerson: true)
        case .setCredential: OperationTraits(wireTag: 0x41, idempotent: true)
        case .invalidateContext: OperationTraits(wireTag: 0x42, idempotent: true)
        case .authenticationCapabilities: OperationTraits(wireTag: 0x43, idempotent: true)
        case .createTokenKey: OperationTraits(wireTag: 0x50, idempotent: true)
        case .useTokenKey: OperationTraits(wireTag: 0x51, idempotent: true)
        case .makeFileKey: OperationTraits(wireTag: 0x60, idempotent: true)
        case .unwrapFileKey: OperationTraits(wireTag: 0x61, idempotent: true)
        case .exportBackup: OperationTraits(wireTag: 0x70, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .stageRestore: OperationTraits(wireTag: 0x72, growsStorage: true)
        case .restoreBackup: OperationTraits(wireTag: 0x71, mayWaitForPerson: true, growsStorage: true)
        case .syncState: OperationTraits(wireTag: 0x08, idempotent: true, mayWaitForPerson: true)
        case .syncNow: OperationTraits(wireTag: 0x09, idempotent: true, mayWaitForPerson: true)
        case .syncAccount: OperationTraits(wireTag: 0x0A, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .auditRecords: OperationTraits(wireTag: 0x0B, idempotent: true, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        case .auditSetting: OperationTraits(wireTag: 0x0C, idempotent: true, mayWaitForPerson: true, reservedToTrustedFrontEnds: true)
        }
    }
}
