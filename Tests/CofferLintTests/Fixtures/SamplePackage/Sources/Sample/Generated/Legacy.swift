import Security

func legacyAdd() {
    SecItemAdd([kSecClass: kSecClassGenericPassword, kSecMatchLimit: kSecMatchLimitAll] as CFDictionary, nil)
}
