/// Names that say a value is a secret: the last word of `authToken`, `userPassword`, `client_secret`, or the last two
/// of `apiKey`, `privateKey`. `passwordLength` or `tokenCount` are not secrets.
enum SecretNames {
    // Not "credentials": on Linux those are a process's uid, gid and pid (SO_PEERCRED) as often as a secret.
    private static let words: Set = ["password", "passwd", "passphrase", "secret", "token", "pin", "passcode"]
    private static let pairs: Set = ["api key", "private key", "secret key", "access key", "signing key", "session key"]

    static func isSecret(_ name: String) -> Bool {
        let parts = split(name)
        guard let last = parts.last else { return false }
        if words.contains(last) { return true }
        return parts.count >= 2 && pairs.contains(parts[parts.count - 2] + " " + last)
    }

    /// `authTokenValue` → auth, token, value; `client_secret` → client, secret; `APIKey` → api, key.
    static func split(_ name: String) -> [String] {
        var parts: [String] = []
        var current = ""
        let characters = Array(name)
        for (index, character) in characters.enumerated() {
            if character == "_" || character == "-" || character == "." || character == " " {
                if !current.isEmpty { parts.append(current) }
                current = ""
                continue
            }
            let startsWord =
                character.isUppercase && !current.isEmpty
                && (!(characters[index - 1].isUppercase) || (index + 1 < characters.count && characters[index + 1].isLowercase))
            if startsWord {
                parts.append(current)
                current = ""
            }
            current.append(character)
        }
        if !current.isEmpty { parts.append(current) }
        return parts.map { $0.lowercased() }
    }
}
