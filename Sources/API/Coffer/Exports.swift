// The vocabulary types a Coffer user needs, re-exported so that `import Coffer` is enough.
// Only these declarations are re-exported; the lower layers stay implementation details.

@_exported import struct KeychainModel.KeychainStatus
@_exported import enum KeychainModel.ProtectionClass
@_exported import class KeychainModel.SecretBytes
@_exported import struct KeychainModel.KeystoreStatus
@_exported import enum KeychainModel.LockState
@_exported import struct Query.AccessControl
@_exported import struct Query.AccessControlFlags
@_exported import enum Query.AuthenticationUI
@_exported import struct Query.PersistentReference
@_exported import enum KeyCrypto.KeyType
@_exported import struct KeyCrypto.KeyAlgorithm
@_exported import enum KeyCrypto.KeyOperation
@_exported import enum BackupFormat.BackupSecret
@_exported import enum BackupFormat.BackupSecretKind
@_exported import struct BackupFormat.RecoveryKey
@_exported import struct BackupFormat.BackupRecipient
@_exported import enum BackupFormat.RecoveryKeyError
@_exported import struct BackupFormat.BackupKDF
@_exported import enum KeychainOperations.RestorePolicy
@_exported import struct KeychainOperations.RestoreReport
@_exported import struct KeychainOperations.RestoreConflict
@_exported import struct KeychainOperations.BackupContents
@_exported import struct KeychainOperations.SyncState
@_exported import enum KeychainOperations.SyncRunOutcome
@_exported import struct KeychainModel.SyncReport
@_exported import struct KeychainOperations.AuditRecord
@_exported import enum KeychainOperations.AuditCheck
@_exported import struct KeychainModel.CallerIdentity
