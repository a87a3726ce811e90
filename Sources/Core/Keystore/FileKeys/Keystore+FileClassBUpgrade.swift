import KeychainModel

extension Keystore {
    /// Gives a version 1 keybag file class B's key pair (version 2), when the `ak` class key is in memory
    /// (its private half is wrapped under a key derived from it): at open without a passcode, at the next
    /// unlock otherwise. Another process may have done it first: its pair is then adopted. On a read-only
    /// keychain nothing is written and class B stays unavailable.
    func upgradeFileClassBIfNeeded() {
        guard state.withLock({ $0.fileClassB == nil && $0.classKeys[.whenUnlocked] != nil }) else { return }
        do {
            if let existing = try loadKeybag().fileClassB {
                state.withLock { $0.fileClassB = existing }
                return
            }
            try updateKeybag { keybag throws(KeystoreError) -> Keybag.FileClassBKeyPair? in
                if let existing = keybag.fileClassB { return existing }
                guard let classA = state.withLock({ $0.classKeys[.whenUnlocked] }) else { return nil }
                let pair = FileClassBKeys.makePair(classA: classA)
                keybag.fileClassB = pair
                keybag.contentVersion = Keybag.currentContentVersion
                return pair
            } then: { pair in
                state.withLock { $0.fileClassB = pair }
            }
            logger.info("keybag upgraded to version \(Keybag.currentContentVersion): file class B key pair added")
        } catch {
            logger.notice("keybag not upgraded yet", metadata: ["reason": "\(error)"])
        }
    }
}
