import KeychainModel

extension Keystore {
    /// The keybag as the file holds it now.
    func loadKeybag() throws(KeystoreError) -> Keybag {
        guard let keybag = try KeybagFile.load(from: folder.keybagURL, deviceKey: deviceKey) else {
            throw .keybagDamaged(reason: "the file is missing")
        }
        return keybag
    }

    /// Read-modify-write of the keybag under the inter-process lock; `apply` runs after the write succeeded.
    func updateKeybag<Result>(
        _ change: (inout Keybag) throws(KeystoreError) -> Result,
        then apply: (Result) -> Void
    ) throws(KeystoreError) {
        let result = try SecureFile.withExclusiveLock(folder.keybagLockURL) { () throws(KeystoreError) -> Result in
            var keybag = try loadKeybag()
            let result = try change(&keybag)
            try KeybagFile.store(keybag, to: folder.keybagURL, deviceKey: deviceKey)
            return result
        }
        apply(result)
    }
}
