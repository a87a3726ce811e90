// A sync run's report is the keychain's vocabulary (the daemon and the Coffer API hand it on); users of this module
// get it with `import SyncClient`.
@_exported import struct KeychainModel.SyncReport
