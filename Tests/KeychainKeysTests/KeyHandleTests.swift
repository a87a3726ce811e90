import Crypto
import Foundation
import KeyCrypto
import KeychainKeys
import KeychainModel
import KeychainOperations
import Query
import Testing

/// The key layer every front end wraps: the keychain's rule of which keys it keeps, and what a kept key's
/// handle answers without the keychain.
@Suite("One key layer")
struct KeyHandleTests {
    private let control = AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: .privateKeyUsage)

    @Test func theRuleOfKeptKeysIsOneTable() throws {
        #expect(TokenKeyCreation.Kind(keyTypeCode: KeyType.ellipticCurve.rawValue, sizeInBits: 256) == .p256)
        #expect(TokenKeyCreation.Kind(keyTypeCode: KeyType.ed25519.rawValue, sizeInBits: 256) == .ed25519)
        #expect(TokenKeyCreation.Kind(keyTypeCode: KeyType.ellipticCurve.rawValue, sizeInBits: 384) == nil)
        #expect(TokenKeyCreation.Kind(keyTypeCode: KeyType.rsa.rawValue, sizeInBits: 2048) == nil)
        #expect(TokenKeyCreation.Kind.p256.uses == [.sign, .decrypt, .keyExchange])
        #expect(TokenKeyCreation.Kind.ed25519.uses == [.sign])
        for kind in TokenKeyCreation.Kind.allCases where !kind.isPostQuantum {
            #expect(KeyType(rawValue: kind.keyTypeCode) != nil, "every SecKey kind is a key type Apple names")
            #expect(try KeyHandle.keptKind(type: #require(KeyType(rawValue: kind.keyTypeCode)), sizeInBits: kind.sizeInBits) == kind)
        }
        // The post-quantum kinds carry the numbers Apple's Security keeps private (110 ML-KEM, 111 ML-DSA; X-Wing none):
        // no SecKey type, so SecKeyCreateRandomKey never reaches them.
        #expect(TokenKeyCreation.Kind.allCases.filter(\.isPostQuantum).map(\.keyTypeCode) == [110, 110, 111, 111, 0])
        #expect(TokenKeyCreation.Kind.allCases.filter(\.isPostQuantum).allSatisfy { KeyType(rawValue: $0.keyTypeCode) == nil })
        #expect(TokenKeyCreation.Kind.mlkem768.uses == [.decapsulate] && TokenKeyCreation.Kind.mldsa65.uses == [.sign])
        let refused = #expect(throws: KeychainFailure.self) { try KeyHandle.keptKind(type: .rsa, sizeInBits: 2048) }
        #expect(refused?.status == .param)
        #expect(refused?.reason == "Failed to generate keypair: \(TokenKeyCreation.Kind.rule)")
    }

    @Test func aKeptP256KeyAnswersWhatItDoesWithoutTheKeychain() throws {
        let publicKey = P256.Signing.PrivateKey().publicKey.x963Representation
        let kept = try KeptKey(TokenKey(sealed: Data([1, 2, 3]), publicKey: publicKey, accessControl: control))
        let handle = KeyHandle(kept: kept)
        #expect(handle.isKept)
        #expect(kept.kind == .p256)
        #expect(handle.type == .ellipticCurve)
        #expect(handle.keyClass == .privateKey)
        #expect(handle.sizeInBits == 256)
        #expect(handle.blockSize == 32)
        #expect(handle.publicHandle == KeyHandle(software: handle.publicKey))
        #expect(!handle.publicHandle.isKept)
        #expect(handle.isSupported(.ecdsaSignatureMessageX962SHA256, for: .sign))
        #expect(handle.isSupported(.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, for: .decrypt))
        #expect(handle.isSupported(.ecdhKeyExchangeStandard, for: .keyExchange))
        #expect(!handle.isSupported(.ecdsaSignatureMessageX962SHA256, for: .verify))
        #expect(!handle.isSupported(.rsaSignatureMessagePSSSHA256, for: .sign))

        // Its public operations belong to its public key; its bytes never leave.
        let verify = #expect(throws: KeychainFailure.self) {
            try handle.verifySignature(Data(), for: Data(), algorithm: .ecdsaSignatureMessageX962SHA256)
        }
        #expect(verify?.status == .param)
        let encrypt = #expect(throws: KeychainFailure.self) {
            try handle.encrypt(Data("x".utf8), algorithm: .eciesEncryptionCofactorVariableIVX963SHA256AESGCM)
        }
        #expect(encrypt?.status == .param)
        let export = #expect(throws: KeychainFailure.self) { try handle.externalRepresentation() }
        #expect(export?.status == .unimplemented)

        // Its attributes are a token key's: the seal as `toid`, its access control, no `v_Data`.
        let attributes = handle.attributeDictionary()
        #expect(attributes[QueryKey.tokenID] == .string(KeyItem.secureEnclaveTokenID))
        #expect(attributes[KeyItem.tokenObjectID] == .data(Data([1, 2, 3])))
        #expect(attributes[QueryKey.accessControl] == .accessControl(control))
        #expect(attributes[QueryKey.valueData] == nil)
    }

    @Test func aKeptEd25519KeyOnlySigns() throws {
        let publicKey = Curve25519.Signing.PrivateKey().publicKey.rawRepresentation
        let handle = KeyHandle(kept: try KeptKey(TokenKey(sealed: Data([9]), publicKey: publicKey, accessControl: control)))
        #expect(handle.kept?.kind == .ed25519)
        #expect(handle.type == .ed25519)
        #expect(handle.isSupported(.edDSASignatureMessageCurve25519SHA512, for: .sign))
        #expect(!handle.isSupported(.eciesEncryptionCofactorVariableIVX963SHA256AESGCM, for: .decrypt))
        #expect(!handle.isSupported(.ecdhKeyExchangeStandard, for: .keyExchange))
    }

    @Test func keptKeysAreEqualByTheirSealAndCarryTheirAuthentication() throws {
        let publicKey = P256.Signing.PrivateKey().publicKey.x963Representation
        let first = try KeptKey(TokenKey(sealed: Data([1]), publicKey: publicKey, accessControl: control))
        let prompting = first.authenticating(with: TokenKeyAuthentication(prompt: "Sign in", interactive: false))
        #expect(prompting == first)
        #expect(prompting.authentication.prompt == "Sign in")
        #expect(!prompting.authentication.interactive)
        let other = try KeptKey(TokenKey(sealed: Data([2]), publicKey: publicKey, accessControl: control))
        #expect(KeyHandle(kept: other) != KeyHandle(kept: first))
        #expect(Set([KeyHandle(kept: first), KeyHandle(kept: prompting)]).count == 1)
        // A software key needs no authentication: it is unchanged.
        let software = try KeyHandle.generate(type: .ellipticCurve, sizeInBits: 256)
        #expect(software.authenticating(with: TokenKeyAuthentication(prompt: "x")) == software)
    }

    @Test func aHandleWhosePublicKeyIsNoKeyOfItsKindIsRefused() {
        let notAPoint = Data([0x04] + [UInt8](repeating: 0xFF, count: 64))
        let refused = #expect(throws: KeychainFailure.self) {
            try KeptKey(TokenKey(sealed: Data([1]), publicKey: notAPoint, accessControl: control))
        }
        #expect(refused?.status == .authFailed)
        #expect(KeptKey(sealed: Data("not a seal".utf8)) == nil)
    }

    @Test func softwareKeysRoundTripThroughTheirItemReference() throws {
        let key = try KeyHandle.generate(type: .ellipticCurve, sizeInBits: 384)
        let read = try #require(KeyHandle(reading: key.itemReference))
        #expect(read == key)
        #expect(KeyHandle(reading: key.publicHandle.itemReference) == key.publicHandle)
        let generated = #expect(throws: KeychainFailure.self) { try KeyHandle.generate(type: .ellipticCurve, sizeInBits: 200) }
        #expect(generated?.status.code == -50 || generated?.status.code == -25311)
    }

    @Test func aSoftwareKeyRunsItsPrivateOperationsHere() throws {
        let key = try KeyHandle.generate(type: .ellipticCurve, sizeInBits: 256)
        let message = Data("challenge".utf8)
        let keychain = UnreachableKeychain()
        let signature = try key.perform(.sign(message), algorithm: .ecdsaSignatureMessageX962SHA256, through: keychain)
        #expect(keychain.requests == 0)
        try key.publicHandle.verifySignature(signature, for: message, algorithm: .ecdsaSignatureMessageX962SHA256)
        let mismatch = #expect(throws: KeychainFailure.self) {
            try key.publicHandle.verifySignature(signature, for: Data("other".utf8), algorithm: .ecdsaSignatureMessageX962SHA256)
        }
        #expect(mismatch?.status.code == -67808)
    }
}
