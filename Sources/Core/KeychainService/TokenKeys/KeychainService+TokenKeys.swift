import Crypto
import Engine
import Foundation
import KeyCrypto
import KeychainModel
import KeychainOperations
import Keystore
import Query

extension KeychainService {
    /// Makes a P-256 (or, Coffer's extension, an Ed25519), ML-KEM or ML-DSA private key that never leaves this
    /// process (§7.5): only its public key and its seal are answered. Post-quantum keys are sealed by the keystore
    /// (bound to the TPM when the keychain is), since TPMs make none. A key whose access control names `biometryCurrentSet` is bound to the fingers
    /// enrolled now; without enrolled biometry it cannot be made (-25293, as Apple's failed evaluation).
    func createTokenKey(_ creation: TokenKeyCreation) -> Response {
        guard creation.sizeInBits == creation.kind.sizeInBits else {
            return .failure(.param, reason: "\(TokenKeyCreation.Kind.rule); got \(creation.sizeInBits) bits")
        }
        var control = creation.accessControl
        if control.needsApplicationPassword {
            return .failure(.unimplemented, reason: "an application password on a key that never leaves the keychain is not supported")
        }
        if control.flags.contains(.biometryCurrentSet) {
            guard case .available(let set) = authenticationFlow.biometryState() else {
                return .failure(.authFailed, reason: "kSecAccessControlBiometryCurrentSet needs enrolled fingers, and none are")
            }
            control = control.binding(biometrySet: set)
        }
        if creation.kind == .p256, let keystore = try? engine().keystore, keystore.keepsKeysInTPM {
            return createTPMKey(control: control, tiedToItem: creation.tiedToItem, keystore: keystore)
        }
        let publicKey: Data
        let secret: SecretBytes
        switch creation.kind {
        case .p256:
            let privateKey = P256.Signing.PrivateKey()
            publicKey = privateKey.publicKey.x963Representation
            secret = privateKey.rawRepresentation.withUnsafeBytes { SecretBytes(copying: $0) }
        case .ed25519:
            let privateKey = Curve25519.Signing.PrivateKey()
            publicKey = privateKey.publicKey.rawRepresentation
            secret = privateKey.rawRepresentation.withUnsafeBytes { SecretBytes(copying: $0) }
        case .mlkem768, .mlkem1024, .mldsa65, .mldsa87, .xwing:
            guard let algorithm = PostQuantumAlgorithm(standardName: creation.kind.postQuantumName),
                let made = try? PostQuantumPrivateKey.generate(algorithm)
            else {
                return .failure(.internal, reason: "the key could not be made")
            }
            (secret, publicKey) = made
        }
        do {
            let keystore = try engine().keystore
            let sealed = try TokenKeySeal.seal(
                scalar: secret, publicKey: publicKey, control: control, tiedToItem: creation.tiedToItem, keystore: keystore)
            return .tokenKey(TokenKey(sealed: sealed, publicKey: publicKey, accessControl: control))
        } catch {
            return .failure(error, reason: Self.tokenKeyReason(error))
        }
    }

    /// A P-256 key made inside the TPM, sealed as any kept key is with the TPM's wrapped form in place of the scalar.
    private func createTPMKey(control: AccessControl, tiedToItem: Bool, keystore: Keystore) -> Response {
        do {
            let key = try keystore.createTPMKey()
            let sealed = try TokenKeySeal.seal(
                tpmKey: key.wrapped, publicKey: key.publicKey, control: control, tiedToItem: tiedToItem, keystore: keystore)
            return .tokenKey(TokenKey(sealed: sealed, publicKey: key.publicKey, accessControl: control))
        } catch let error as KeystoreError {
            return .failure(error.status, reason: error.description)
        } catch let status as KeychainStatus {
            return .failure(status, reason: Self.tokenKeyReason(status))
        } catch {
            return .failure(.internal, reason: "the key could not be made")
        }
    }

    /// Uses a token key for `caller` and records the use in the audit journal, with the key's item when one holds it.
    func useTokenKey(_ use: TokenKeyUse, caller: CallerContext, session: UInt64) -> Response {
        if case .checkSeal = use.operation { return checkSeal(use.key) }
        let tied = TokenKeySealLayout(parsing: use.key)?.isTiedToItem == true
        let item = tied ? keyItem(holding: use.key) : nil
        let answer: Response =
            if tied, item == nil {
                .failure(.itemNotFound, reason: "the key's item was deleted, and the key with it")
            } else {
                useTokenKey(use, session: session)
            }
        let recorded = recordAudit(
            AuditRecord(
                time: Date(), event: .keyUsed, operation: use.operation.auditName, caller: caller.identity,
                accessGroups: caller.groupList, itemClass: ItemClass.key.rawValue, items: item.map { [$0] } ?? [],
                status: answer.auditStatus, detail: item == nil && !tied ? "a key no item holds" : nil))
        return answer.auditStatus == 0 ? refusing(answer, unless: recorded) : answer
    }

    /// Opens a token key's seal without using it (``TokenKeyUse/Operation/checkSeal``).
    private func checkSeal(_ sealed: Data) -> Response {
        do {
            _ = try openTokenKey(sealed)
            return .status(.success)
        } catch {
            return .failure(error, reason: Self.tokenKeyReason(error))
        }
    }

    /// Uses a token key: opens its seal, checks that its kind does what is asked (``TokenKeyCreation/Kind/uses``)
    /// and that the call's context has proved what the key's access control asks for its use (`privateKeyUsage`
    /// with constraints, §6.2) through the gate items go through (``AccessGate``), and runs the operation here.
    private func useTokenKey(_ use: TokenKeyUse, session: UInt64) -> Response {
        let opened: OpenedTokenKeys.Opened
        do {
            opened = try openTokenKey(use.key)
        } catch {
            return .failure(error, reason: Self.tokenKeyReason(error))
        }
        guard let wanted = use.operation.use, opened.kind.uses.contains(wanted) else {
            return .failure(
                .param,
                reason:
                    "\(use.algorithm): algorithm not supported by the key (a key that never leaves the keychain, of a kind that does not \(use.operation.use.map { "\($0)" } ?? "that"))"
            )
        }
        let (verified, _) = sessions.authorization(session: session, context: use.authentication.context)
        let gate = AccessGate(verified: verified, ui: use.authentication.interactive ? .allow : .fail)
        do {
            _ = try gate.decide(Self.useRequirement(of: opened.accessControl), guarding: "using this key")
        } catch {
            return Response(error)
        }
        do throws(KeyCryptoError) {
            switch opened.key {
            case .classic(let key): return try Self.run(use, with: key)
            case .postQuantum(let key): return try Self.run(use, with: key)
            }
        } catch {
            return .failure(KeychainStatus(code: error.status), reason: error.message)
        }
    }

    /// `use` run with a P-256 or Ed25519 key, with Apple's algorithm.
    private static func run(_ use: TokenKeyUse, with key: AsymmetricKey) throws(KeyCryptoError) -> Response {
        let algorithm = KeyAlgorithm(rawValue: use.algorithm)
        switch use.operation {
        case .sign:
            return .value(.data(try key.signature(for: use.input, algorithm: algorithm)))
        case .decrypt:
            return .value(.data(try key.decrypt(use.input, algorithm: algorithm)))
        case .keyExchange(let requestedSize, let sharedInfo):
            let peer = try AsymmetricKey(externalRepresentation: use.input, type: .ellipticCurve, keyClass: .publicKey)
            return .value(.data(try key.sharedSecret(with: peer, algorithm: algorithm, requestedSize: requestedSize, sharedInfo: sharedInfo)))
        case .signWithContext, .decapsulate, .checkSeal:
            throw KeyCryptoError(status: -50, message: "\(use.algorithm): algorithm not supported by the key")
        }
    }

    /// `use` run with an ML-KEM, ML-DSA or X-Wing key, whose algorithms are the ones Apple's Security names for them
    /// (`algid:kem:ML-KEM`, `algid:sign:ML-DSA:message`) and Coffer's for X-Wing (`coffer:kem:X-Wing`).
    private static func run(_ use: TokenKeyUse, with key: PostQuantumPrivateKey) throws(KeyCryptoError) -> Response {
        guard use.algorithm == key.algorithm.useIdentifier else {
            throw KeyCryptoError(status: -50, message: "\(use.algorithm): algorithm not supported by the key")
        }
        switch use.operation {
        case .decapsulate:
            let secret = try key.decapsulate(use.input)
            return .value(.data(secret.withUnsafeBytes { Data($0) }))
        case .sign:
            return .value(.data(try key.signature(for: use.input, context: Data())))
        case .signWithContext(let context):
            return .value(.data(try key.signature(for: use.input, context: context)))
        default:
            throw KeyCryptoError(status: -50, message: "\(use.algorithm): algorithm not supported by the key")
        }
    }

    /// The key sealed in `sealed`: kept from an earlier use while its class keys stay in memory, else
    /// opened from its seal, which checks that this keychain made it, that it was not altered (-25293) and
    /// that its class is unlocked (-25308).
    private func openTokenKey(_ sealed: Data) throws(KeychainStatus) -> OpenedTokenKeys.Opened {
        if let kept = openedTokenKeys.key(sealed: sealed) { return kept }
        let keystore = try engine().keystore
        let seal = try TokenKeySeal.open(sealed, keystore: keystore)
        let key: OpenedTokenKeys.OpenedKey
        do {
            switch seal.secret {
            case .privateKey(let seed) where PostQuantumAlgorithm(standardName: seal.kind.postQuantumName) != nil:
                guard let algorithm = PostQuantumAlgorithm(standardName: seal.kind.postQuantumName) else { throw KeyCryptoError(status: -25293, message: "") }
                key = .postQuantum(try PostQuantumPrivateKey(algorithm, seed: seed, publicKey: seal.publicKey))
            case .privateKey(let privateKey):
                guard let type = KeyType(rawValue: seal.kind.keyTypeCode) else { throw KeyCryptoError(status: -25293, message: "") }
                key = .classic(
                    try privateKey.withUnsafeBytes { bytes throws(KeyCryptoError) in
                        var representation = Data(bytes)
                        defer { representation.resetBytes(in: 0..<representation.count) }
                        return try AsymmetricKey(externalRepresentation: representation, type: type, keyClass: .privateKey)
                    })
            case .tpmKey(let wrapped):
                key = .classic(try AsymmetricKey(held: Self.heldKey(wrapped, publicKey: seal.publicKey, keystore: keystore)))
            }
        } catch {
            throw .authFailed
        }
        let opened = OpenedTokenKeys.Opened(key: key, kind: seal.kind, accessControl: seal.accessControl)
        openedTokenKeys.keep(opened, sealed: sealed)
        return opened
    }

    /// A key inside the TPM as KeyCrypto uses it: each signature and agreement a request to the keystore's TPM.
    private static func heldKey(_ wrapped: Data, publicKey: Data, keystore: Keystore) -> HeldP256PrivateKey {
        HeldP256PrivateKey(
            publicKey: publicKey,
            sign: { value throws(HeldP256PrivateKey.Failure) in
                do throws(KeystoreError) {
                    return try keystore.tpmSignature(wrapped: wrapped, value: value)
                } catch {
                    throw HeldP256PrivateKey.Failure(reason: error.description)
                }
            },
            agree: { peer throws(HeldP256PrivateKey.Failure) in
                do throws(KeystoreError) {
                    return try keystore.tpmKeyAgreement(wrapped: wrapped, peer: peer)
                } catch {
                    throw HeldP256PrivateKey.Failure(reason: error.description)
                }
            })
    }

    /// What using a key with `control` needs the person to prove; nil when nothing.
    static func useRequirement(of control: AccessControl) -> AuthenticationRequirement? {
        let constraints = AccessControl(
            protection: control.protection, flags: control.flags.subtracting(.privateKeyUsage),
            boundBiometrySet: control.boundBiometrySet)
        return AuthenticationRequirement(accessControl: constraints)
    }

    private static func tokenKeyReason(_ status: KeychainStatus) -> String {
        switch status {
        case .interactionNotAllowed: "the key's protection class is locked"
        case .authFailed: "the key was not made by this keychain, or it was altered"
        default: "the key could not be used"
        }
    }
}

extension TokenKeyUse.Operation {
    /// The operation's name in the audit journal.
    var auditName: String {
        switch self {
        case .sign, .signWithContext: "sign"
        case .decrypt: "decrypt"
        case .keyExchange: "keyExchange"
        case .decapsulate: "decapsulate"
        case .checkSeal: "checkSeal"
        }
    }
}
