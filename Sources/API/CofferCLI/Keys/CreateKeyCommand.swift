import ArgumentParser
import Foundation
import KeychainModel
import Query
import SSHAgent
import Security
import Coffer

/// `create-key`: makes a key pair and stores both halves as key items (`SecKeyCreateRandomKey` with
/// `kSecAttrIsPermanent`), then prints the private key's attributes.
struct CreateKeyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create-key",
        abstract: "Create a key pair (EC, RSA, Ed25519, ML-KEM or ML-DSA) and store it in the keychain.",
        discussion: """
            With --enclave the private key is a P-256 key (or, with -t ed25519, an Ed25519 key) made inside the \
            keychain (in cofferd with the daemon) that never leaves it: it can sign (and, P-256, agree), never be \
            exported. Its access control defaults to privateKeyUsage, so each use asks nobody; add userPresence \
            to ask for the passcode.
            The post-quantum types (-t ml-kem-768, ml-kem-1024, ml-dsa-65, ml-dsa-87) are always made inside the \
            keychain and need --tag: an ML-KEM key decapsulates, an ML-DSA key signs, and the same key is \
            CryptoKit's SecureEnclave.MLKEM768 (and so on) through its handle; its public key is printed in base64. \
            Their protection defaults to afterFirstUnlockThisDeviceOnly with no constraint, as CryptoKit's.
            With --ssh the key is such a P-256 (default) or Ed25519 (-t ed25519) key tagged for \
            `coffer ssh-agent`, which offers it to ssh; its OpenSSH public key line (for authorized_keys) is \
            printed, with the label as its comment.
            """)

    @Option(name: [.customShort("t"), .customLong("type")], help: "ec, rsa, ed25519, ml-kem-768, ml-kem-1024, ml-dsa-65 or ml-dsa-87.")
    var type: KeyTypeOption = .ec
    @Option(
        name: [.customShort("s"), .customLong("size")],
        help: "Bits: 256, 384 or 521 for ec (default 256); 2048 to 4096 for rsa (default 2048); 256 for ed25519.")
    var size: Int?
    @Option(name: .customLong("tag"), help: "The application tag (kSecAttrApplicationTag) to find the key by.")
    var tag: String?
    @Option(name: [.customShort("l"), .customLong("label")], help: "The label (kSecAttrLabel).")
    var label: String?
    @Option(name: .customLong("protection"), help: "The protection class: \(ProtectionOption.names).")
    var protection: ProtectionOption?
    @Option(
        name: .customLong("access-control"),
        help: "Access control flags, comma-separated: \(AccessControlOption.names).")
    var accessControl: AccessControlOption?
    @Flag(name: .customLong("enclave"), help: "Make a P-256 (or -t ed25519) private key that never leaves the keychain.")
    var enclave = false
    @Flag(name: .customLong("ssh"), help: "Make an --enclave key for coffer ssh-agent and print its OpenSSH public key.")
    var ssh = false

    func validate() throws {
        if type == .ed25519, (size ?? 256) != 256 { throw ValidationError("Ed25519 keys are 256 bits") }
        if type.postQuantumKind != nil {
            if size != nil { throw ValidationError("-t \(type.rawValue) names its size; -s cannot be given with it") }
            if ssh { throw ValidationError("--ssh makes P-256 or Ed25519 keys only") }
            if tag == nil { throw ValidationError("-t \(type.rawValue) needs --tag, to find the key again") }
        }
        guard ssh else { return }
        if tag != nil { throw ValidationError("--ssh sets the tag itself; --tag cannot be given with it") }
        if type == .rsa || (size ?? 256) != 256 { throw ValidationError("--ssh makes P-256 (-t ec -s 256) or Ed25519 (-t ed25519) keys only") }
    }

    func run() throws {
        let command = Self.configuration.commandName!
        let client = try ItemCommandSupport.client(command: command)
        if let kind = type.postQuantumKind {
            try createPostQuantumKey(kind, client: client)
            return
        }
        if ssh { try OwnerProofInput.ensure(client, reason: "add an SSH key to your agent", command: command) }
        try KeyCalls.using(client) {
            let control = try accessControl.map { flags in
                try KeyCalls.accessControl(protection: protection, flags: flags.flags, command: command)
            }
            var privateAttributes: [String: Any] = [:]
            if let control { privateAttributes[kSecAttrAccessControl as String] = control }
            var parameters: [String: Any] = [
                kSecAttrKeyType as String: type.appleValue,
                kSecAttrKeySizeInBits as String: size ?? type.defaultSize,
                kSecAttrIsPermanent as String: true,
                kSecPrivateKeyAttrs as String: privateAttributes,
            ]
            if let tag { parameters[kSecAttrApplicationTag as String] = Data(tag.utf8) }
            if ssh {
                parameters[kSecAttrApplicationTag as String] = AgentKeyTag().data
                parameters[kSecAttrAccessGroup as String] = OwnerAccessGroups.sshAgent
            }
            if let label { parameters[kSecAttrLabel as String] = label }
            if control == nil, let protection { parameters[kSecAttrAccessible as String] = protection.rawValue }
            if enclave || ssh { parameters[kSecAttrTokenID as String] = kSecAttrTokenIDSecureEnclave }
            let key = try KeyCalls.check(command) { error in SecKeyCreateRandomKey(parameters as CFDictionary, &error) }
            let publicKey = try KeyCalls.publicKey(of: key, command: command)
            if ssh {
                print(publicKey.openSSHPublicKey(comment: label))
                return
            }
            let applicationLabel = publicKey.applicationLabel
            let created: [KeychainValue: KeychainValue] = [
                .string(QueryKey.itemClass): .string(ItemClass.key.rawValue),
                .string(QueryKey.applicationLabel): .data(applicationLabel),
            ]
            try KeyListing.print(created, keyClass: kSecAttrKeyClassPrivate as String, client: client, command: command)
        }
    }
}

/// `-t`: the key types `create-key` makes.
enum KeyTypeOption: String, ExpressibleByArgument {
    case ec, rsa, ed25519
    case mlkem768 = "ml-kem-768", mlkem1024 = "ml-kem-1024", mldsa65 = "ml-dsa-65", mldsa87 = "ml-dsa-87"

    /// `kSecAttrKeyType`'s value (for the post-quantum types, the number Apple's Security keeps private).
    var appleValue: String {
        switch self {
        case .ec: kSecAttrKeyTypeECSECPrimeRandom as String
        case .rsa: kSecAttrKeyTypeRSA as String
        case .ed25519: kSecAttrKeyTypeEd25519 as String
        case .mlkem768, .mlkem1024: "110"
        case .mldsa65, .mldsa87: "111"
        }
    }

    /// The post-quantum kind this type names; nil for EC, RSA and Ed25519.
    var postQuantumKind: PostQuantumKey.Kind? { PostQuantumKey.Kind(rawValue: rawValue) }
    /// The size when `-s` is not given.
    var defaultSize: Int { self == .rsa ? 2048 : 256 }
}

/// `--protection`: a protection class by its Swift name (`whenUnlocked`) or Apple's code (`ak`).
struct ProtectionOption: ExpressibleByArgument {
    /// Apple's code (`kSecAttrAccessible`'s value).
    let rawValue: String

    static let byName: [String: ProtectionClass] = [
        "whenUnlocked": .whenUnlocked, "afterFirstUnlock": .afterFirstUnlock,
        "whenUnlockedThisDeviceOnly": .whenUnlockedThisDeviceOnly,
        "afterFirstUnlockThisDeviceOnly": .afterFirstUnlockThisDeviceOnly,
        "whenPasscodeSetThisDeviceOnly": .whenPasscodeSetThisDeviceOnly,
    ]
    static var names: String { byName.keys.sorted().joined(separator: ", ") }

    init?(argument: String) {
        guard let protection = Self.byName[argument] ?? ProtectionClass(rawValue: argument) else { return nil }
        rawValue = protection.rawValue
    }
}

/// `--access-control`: `SecAccessControlCreateFlags` by name, comma-separated (`privateKeyUsage,userPresence`).
struct AccessControlOption: ExpressibleByArgument {
    let flags: SecAccessControlCreateFlags

    static let byName: [String: SecAccessControlCreateFlags] = [
        "userPresence": .userPresence, "devicePasscode": .devicePasscode, "biometryAny": .biometryAny,
        "biometryCurrentSet": .biometryCurrentSet, "applicationPassword": .applicationPassword,
        "privateKeyUsage": .privateKeyUsage, "or": .or, "and": .and,
    ]
    static var names: String { byName.keys.sorted().joined(separator: ", ") }

    init?(argument: String) {
        var flags: SecAccessControlCreateFlags = []
        for name in argument.split(separator: ",") {
            guard let flag = Self.byName[String(name)] else { return nil }
            flags.insert(flag)
        }
        guard !flags.isEmpty else { return nil }
        self.flags = flags
    }
}
