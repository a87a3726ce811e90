import KeychainOperations

/// The first byte of a payload. Requests and responses use disjoint ranges, so a message sent the wrong way
/// is ``MalformedPayload/unknownMessage(_:)``, never misread. A request's tag is its kind's
/// (``OperationTraits/wireTag``, from the one table of operation traits); the answers' are here.
public enum MessageTag {
    /// ``Request/add(_:)``: a query dictionary.
    public static let add = Request.Kind.add.traits.wireTag
    /// ``Request/copyMatching(_:)``: a query dictionary.
    public static let copyMatching = Request.Kind.copyMatching.traits.wireTag
    /// ``Request/update(query:attributesToUpdate:)``: two query dictionaries.
    public static let update = Request.Kind.update.traits.wireTag
    /// ``Request/delete(_:)``: a query dictionary.
    public static let delete = Request.Kind.delete.traits.wireTag
    /// ``Request/addEach(_:)``: the count (UInt32, at most ``Request/maximumAddEachCount``), then each query dictionary.
    public static let addEach = Request.Kind.addEach.traits.wireTag
    /// ``Request/lockStatus``: no fields.
    public static let lockStatus = Request.Kind.lockStatus.traits.wireTag
    /// ``Request/unlock(passcode:)``: the passcode (length, bytes).
    public static let unlock = Request.Kind.unlock.traits.wireTag
    /// ``Request/lock``: no fields.
    public static let lock = Request.Kind.lock.traits.wireTag
    /// ``Request/setPasscode(new:)``: the passcode (length, bytes).
    public static let setPasscode = Request.Kind.setPasscode.traits.wireTag
    /// ``Request/changePasscode(old:new:)``: two passcodes.
    public static let changePasscode = Request.Kind.changePasscode.traits.wireTag
    /// ``Request/removePasscode(current:)``: the passcode.
    public static let removePasscode = Request.Kind.removePasscode.traits.wireTag
    /// ``Request/setEraseAfterFailedAttempts(_:passcode:)``: boolean byte, then the passcode.
    public static let setEraseAfterFailedAttempts = Request.Kind.setEraseAfterFailedAttempts.traits.wireTag
    /// ``Request/appsList``: no fields.
    public static let appsList = Request.Kind.appsList.traits.wireTag
    /// ``Request/appsAdd(_:passcode:)``: path, application identifier, groups (count, strings), pin (boolean byte),
    /// identity mode (1 path, 2 identity group), passcode.
    public static let appsAdd = Request.Kind.appsAdd.traits.wireTag
    /// ``Request/appsRemove(_:passcode:)``: selector kind (1 path, 2 application identifier), the string, the passcode.
    public static let appsRemove = Request.Kind.appsRemove.traits.wireTag
    /// ``Request/unlockWithPrompt``: no fields.
    public static let unlockWithPrompt = Request.Kind.unlockWithPrompt.traits.wireTag
    /// ``Request/awaitPrompt``: no fields.
    public static let awaitPrompt = Request.Kind.awaitPrompt.traits.wireTag
    /// ``Request/answerPrompt(id:passcode:)``: the prompt's identifier (UInt64), a presence byte, then the passcode if present.
    public static let answerPrompt = Request.Kind.answerPrompt.traits.wireTag
    /// ``Request/proveOwner(passcode:)``: the passcode (length, bytes).
    public static let proveOwner = Request.Kind.proveOwner.traits.wireTag
    /// ``Request/proveOwnerWithPrompt(reason:)``: the reason (text).
    public static let proveOwnerWithPrompt = Request.Kind.proveOwnerWithPrompt.traits.wireTag
    /// ``Request/authenticate(_:)``: the context (16 bytes, length-prefixed), the requirement (factor count,
    /// factor bytes, needs-all boolean byte, bound set: presence byte then length and bytes), the reason (text),
    /// the reuse duration (duration), interactive (boolean byte).
    public static let authenticate = Request.Kind.authenticate.traits.wireTag
    /// ``Request/setCredential(context:applicationPassword:)``: the context, a presence byte, then the password.
    public static let setCredential = Request.Kind.setCredential.traits.wireTag
    /// ``Request/invalidateContext(_:)``: the context.
    public static let invalidateContext = Request.Kind.invalidateContext.traits.wireTag
    /// ``Request/authenticationCapabilities``: no fields.
    public static let authenticationCapabilities = Request.Kind.authenticationCapabilities.traits.wireTag
    /// ``Request/createTokenKey(_:)``: the access control (protection, flags UInt64), the size in bits (UInt32), the
    /// kind (1 P-256, 2 Ed25519, 3 ML-KEM-768, 4 ML-KEM-1024, 5 ML-DSA-65, 6 ML-DSA-87), whether the key is tied to
    /// its item (boolean byte).
    public static let createTokenKey = Request.Kind.createTokenKey.traits.wireTag
    /// ``Request/useTokenKey(_:)``: the sealed key (length, bytes), the operation (1 sign, 2 decrypt, 3 key
    /// exchange, followed by the requested size: presence byte then UInt32, and the shared info: presence byte
    /// then length and bytes; 4 sign with a context, followed by the context: length and bytes; 5 decapsulate), the
    /// algorithm (text), the input (length, bytes), the context (presence byte, then
    /// length and bytes), the prompt (text), interactive (boolean byte).
    public static let useTokenKey = Request.Kind.useTokenKey.traits.wireTag
    /// ``Request/makeFileKey(_:)``: the file protection class (one byte, Apple's number 1–4).
    public static let makeFileKey = Request.Kind.makeFileKey.traits.wireTag
    /// ``Request/unwrapFileKey(_:)``: the class (one byte), the wrapped key (length, bytes), the one-time public
    /// key (presence byte, then length and bytes).
    public static let unwrapFileKey = Request.Kind.unwrapFileKey.traits.wireTag

    /// ``Response/value(_:)``: a presence byte (0 or 1), then the value if present.
    public static let value: UInt8 = 0x81
    /// ``Response/status(_:)``: the `OSStatus`, Int32.
    public static let status: UInt8 = 0x82
    /// ``Response/keystoreError(_:)``: the case (one byte, 1–17 in declaration order), then its fields.
    public static let keystoreError: UInt8 = 0x83
    /// ``Response/lockStatus(_:)``: passcode set (boolean byte), lock state (1 before first unlock,
    /// 2 unlocked, 3 locked), failed attempts (Int64), retry-after (duration), erase-after-failures (boolean byte), what protects the device key (`DeviceKeyProtectionCoding`).
    public static let lockStatusResult: UInt8 = 0x84
    /// ``Response/failure(_:reason:)``: the `OSStatus` (Int32), then the reason (text).
    public static let failure: UInt8 = 0x86
    /// ``Response/apps(_:)``: a count, then per entry path, application identifier, groups, and the pinned hash
    /// (presence byte, then length and bytes), and the identity group (presence byte, then the gid, UInt32).
    public static let apps: UInt8 = 0x85
    /// ``Response/prompt(_:)``: the prompt's identifier (UInt64), its purpose (one byte, 1 unlock, 2 authenticate),
    /// the requester (text), failed attempts so far (Int64), the program's reason (text).
    public static let prompt: UInt8 = 0x87
    /// ``Response/authenticationFailure(_:)``: LocalAuthentication's code (Int32), then the reason (text).
    public static let authenticationFailure: UInt8 = 0x88
    /// ``Response/authenticationCapabilities(_:)``: passcode set (boolean byte), biometry (1 not available with
    /// a reason text, 2 not enrolled, 3 available with the domain state's length and bytes).
    public static let authenticationCapabilitiesResult: UInt8 = 0x89
    /// ``Response/authenticationNeeded(_:)``: the requirement (factor count, factor bytes, needs-all boolean byte,
    /// bound set: presence byte then length and bytes).
    public static let authenticationNeeded: UInt8 = 0x8A
    /// ``Response/tokenKey(_:)``: the sealed key (length, bytes), the public key (length, bytes), the access
    /// control (protection, flags UInt64).
    public static let tokenKey: UInt8 = 0x8B
    /// ``Response/fileKey(_:)``: the wrapped key as in ``unwrapFileKey``, then the key (length, bytes).
    public static let fileKey: UInt8 = 0x8C

    // Backups (requests, then their answers).
    /// ``Request/exportBackup(_:)``: the passcode (presence byte, then length and bytes).
    public static let exportBackup = Request.Kind.exportBackup.traits.wireTag
    /// ``Request/restoreBackup(_:)``: the record stream (length, bytes), the policy (one byte: 1 keep, 2 replace,
    /// 3 both), the staging (presence byte, then the identifier, UInt64).
    public static let restoreBackup = Request.Kind.restoreBackup.traits.wireTag
    /// ``Request/stageRestore(_:)``: the staging identifier (UInt64), the part's index (UInt32), the part's record
    /// stream (length, bytes).
    public static let stageRestore = Request.Kind.stageRestore.traits.wireTag
    /// ``Response/backup(_:)``: the record stream (length, bytes), the item count (UInt32), the items left behind
    /// (four UInt32: this device only, passcode set only, non-extractable keys, device-bound).
    public static let backup: UInt8 = 0x8D
    /// ``Response/restoreReport(_:)``: added and identical (UInt32 each), the conflict count (UInt32), then per
    /// conflict the class (text), the summary (text) and the outcome (one byte).
    public static let restoreReport: UInt8 = 0x8E
    /// ``Response/addOutcomes(_:)``: the count (UInt32), then each item's status (Int32).
    public static let addOutcomes: UInt8 = 0x8F

    // Sync (requests, then their answers).
    /// ``Request/syncState(changedFrom:)``: the state the caller has (presence byte, then the state as in
    /// ``syncStateResult``).
    public static let syncState = Request.Kind.syncState.traits.wireTag
    /// ``Request/syncNow``: no fields.
    public static let syncNow = Request.Kind.syncNow.traits.wireTag
    /// ``Response/syncState(_:)``: syncing (bool), pending, mirrored, waiting for unlock and conflicts (Int64 each),
    /// then the last run: 0 none; 1 synced, the report as in ``syncReport`` and the date; 2 failed, the reason
    /// (text) and the date. A date is seconds since 1970, a Double's bits in a UInt64.
    public static let syncStateResult: UInt8 = 0x90
    /// ``Response/syncReport(_:)``: sent, received, applied, conflicts, refused, waiting and collected (Int64 each).
    public static let syncReport: UInt8 = 0x91
    /// ``Request/syncAccount(_:)``: the kind (one byte: 1 set up, 2 join with the recovery key, 3 request to join, 4
    /// await the approval, 5 approve, 6 devices, 7 remove a device, 8 leave), then its fields: the server URI (text),
    /// the password (secret) and the device's name (text) for 1 to 3, then the recovery key (secret) for 2; the code
    /// (text) for 5; the device's name or id (text) for 7.
    public static let syncAccount = Request.Kind.syncAccount.traits.wireTag
    /// ``Response/syncAccount(_:)``: the kind (one byte: 1 done, 2 recovery key, 3 pairing code, 4 a device, 5
    /// devices), then the recovery key (secret), the code (text), a device, or a count and that many devices; a device
    /// is its id (16 bytes, length-prefixed), name (text) and two flags (this device, recovery key).
    public static let syncAccountResult: UInt8 = 0x92
    /// ``Request/deviceKeyBinding(_:)``: as `DeviceKeyBindingCoding` writes it.
    public static let deviceKeyBinding = Request.Kind.deviceKeyBinding.traits.wireTag
    /// ``Response/recoveryKey(_:)``: the recovery key's printed form (secret).
    public static let recoveryKey: UInt8 = 0x93

    // The audit journal (the request, then its answer).
    /// ``Request/auditRecords(_:)``: the passcode (presence byte, then length and bytes), the sequence to read after
    /// (UInt64), the limit (UInt32, 1–4096), whether to verify (one byte).
    public static let auditRecords = Request.Kind.auditRecords.traits.wireTag
    /// ``Response/auditPage(_:)``: the count, then each record's sequence (UInt64) and its encoding (length, bytes);
    /// whether more follow (one byte); the check (0 none; 1 intact: records, first, last, rotated away, each UInt64;
    /// 2 damaged: the file's path, the sequence's presence byte and UInt64, the reason).
    public static let auditPage: UInt8 = 0x94
    /// ``Request/auditSetting(_:)``: the passcode (presence byte, then length and bytes), the new setting (one byte: 0
    /// read only, 1 off, 2 on).
    public static let auditSetting = Request.Kind.auditSetting.traits.wireTag
}
