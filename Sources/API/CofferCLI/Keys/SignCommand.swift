import ArgumentParser
import Foundation
import KeyCrypto
import Query
import Security

/// `-a`: a signature algorithm by Apple's identifier, or the key type's usual one.
struct SignatureAlgorithmOption: ParsableArguments {
    @Option(
        name: [.customShort("a"), .customLong("algorithm")],
        help: ArgumentHelp(
            "The SecKeyAlgorithm, by its Swift name (rsaSignatureMessagePSSSHA256) or its identifier (algid:sign:…).",
            discussion:
                "Default: algid:sign:ECDSA:message-X962:SHA256 for EC keys (a DER signature), algid:sign:RSA:message-PKCS1v15:SHA256 for RSA keys; an ML-DSA key (create-key -t ml-dsa-65) takes none."
        ))
    var identifier: String?

    func validate() throws {
        guard let identifier, named(identifier) == nil else { return }
        throw ValidationError(
            "unknown algorithm \(identifier): give a SecKeyAlgorithm such as ecdsaSignatureMessageX962SHA256 or algid:sign:ECDSA:message-X962:SHA256")
    }

    /// The algorithm `text` names: a Swift name, or an identifier of one of Apple's algorithms.
    private func named(_ text: String) -> KeyAlgorithm? {
        KeyAlgorithm.bySwiftName[text] ?? KeyAlgorithm.all.first { $0.rawValue == text }
    }

    /// Refuses an algorithm given for a post-quantum key: ML-DSA signs as FIPS 204 says, with no choice to make.
    func requirePostQuantumDefault(_ command: String) throws {
        guard let identifier else { return }
        throw CLIFailure("\(command): -a \(identifier) is not for the ML-DSA key under this tag, which signs one way only: leave -a out")
    }

    /// The algorithm for `key`: the one given, else the usual one for its type.
    func algorithm(for key: SecKey) -> SecKeyAlgorithm {
        if let identifier, let algorithm = named(identifier) { return SecKeyAlgorithm(rawValue: algorithm.rawValue as CFString) }
        let attributes = SecKeyCopyAttributes(key) as? [String: Any]
        let type = attributes?[kSecAttrKeyType as String] as? String
        if type == kSecAttrKeyTypeRSA as String { return .rsaSignatureMessagePKCS1v15SHA256 }
        if type == kSecAttrKeyTypeEd25519 as String { return .edDSASignatureMessageCurve25519SHA512 }
        return .ecdsaSignatureMessageX962SHA256
    }
}

/// `sign`: signs standard input with a private key of the keychain and writes the signature to standard output.
struct SignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sign",
        abstract: "Sign standard input with a key of the keychain; the signature goes to standard output.",
        discussion:
            "A key whose access control asks for the person asks for the keychain passcode (on the terminal, through pinentry, or through the daemon's prompt agent)."
    )

    @OptionGroup var selection: KeySelection
    @OptionGroup var algorithm: SignatureAlgorithmOption

    func run() throws {
        let command = Self.configuration.commandName!
        try selection.requireOne(command)
        let message = try KeyInput.standardInput(command: command)
        let client = try ItemCommandSupport.client(command: command)
        let signature = try KeyCalls.using(client) { () throws -> Data in
            switch try SelectedKey.find(selection, client: client, command: command) {
            case .postQuantum(let key):
                try algorithm.requirePostQuantumDefault(command)
                return try PostQuantumKeyCalls.signature(for: message, with: key, client: client, command: command)
            case .secKey(let key):
                let chosen = algorithm.algorithm(for: key)
                return try KeyCalls.check(command) { error in SecKeyCreateSignature(key, chosen, message as CFData, &error) } as Data
            }
        }
        FileHandle.standardOutput.write(signature)
    }
}

/// `verify`: checks a signature of standard input with a key of the keychain.
struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Verify a signature (--signature FILE) of standard input with a key of the keychain.",
        discussion: "Prints 'signature verified' and exits 0, or says the signature does not match and exits 1.")

    @OptionGroup var selection: KeySelection
    @OptionGroup var algorithm: SignatureAlgorithmOption
    @Option(name: .customLong("signature"), help: "The file holding the signature.")
    var signaturePath: String

    func run() throws {
        let command = Self.configuration.commandName!
        try selection.requireOne(command)
        let signature: Data
        do {
            signature = try Data(contentsOf: URL(fileURLWithPath: signaturePath))
        } catch {
            throw CLIFailure("\(command): cannot read the signature file \(signaturePath)")
        }
        let message = try KeyInput.standardInput(command: command)
        let client = try ItemCommandSupport.client(command: command)
        try KeyCalls.using(client) {
            let key: SecKey
            switch try SelectedKey.find(selection, client: client, command: command) {
            case .secKey(let found): key = found
            case .postQuantum(let postQuantum):
                try algorithm.requirePostQuantumDefault(command)
                guard try PostQuantumKeyCalls.isValidSignature(signature, for: message, by: postQuantum, command: command) else {
                    throw CLIFailure("\(command): verification failed: the signature does not match")
                }
                print("signature verified")
                return
            }
            guard let publicKey = SecKeyCopyPublicKey(key) else { throw CLIFailure("\(command): the key has no public key") }
            var error: Unmanaged<CFError>?
            if SecKeyVerifySignature(publicKey, algorithm.algorithm(for: key), message as CFData, signature as CFData, &error) {
                print("signature verified")
                return
            }
            let reason = error.map { String(CFErrorCopyDescription($0.takeRetainedValue())) } ?? "the signature does not match"
            throw CLIFailure("\(command): verification failed: \(reason)")
        }
    }
}

/// What the key commands read from standard input.
enum KeyInput {
    /// The most a message to sign or verify may be: the bound on an item's data.
    static let limit = SizeLimits.valueData

    /// Standard input to its end, at most ``limit`` bytes.
    static func standardInput(command: String) throws -> Data {
        var data = Data()
        while let chunk = try? FileHandle.standardInput.read(upToCount: 1 << 16), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= limit else { throw CLIFailure("\(command): standard input is longer than \(limit) bytes") }
        }
        return data
    }
}
