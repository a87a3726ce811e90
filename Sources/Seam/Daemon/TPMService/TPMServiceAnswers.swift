import Foundation
import KeychainModel
import TrustedPlatformModule

/// What the TPM service answers a request with, on behalf of one uid: the operation run by the daemon's TPM with
/// that uid's authorisation value, so objects made for one user are refused (TPM_RC_BAD_AUTH, never counted towards
/// the TPM's lockout) for any other.
struct TPMServiceAnswers: Sendable {
    let tpm: PlatformTPM
    let secret: TPMServiceSecret

    /// The answer to `request` for `uid`; a malformed request gets a failure, never a crash.
    func answer(_ request: TPMServiceMessage, for uid: UInt32) -> TPMServiceMessage {
        let authorization = secret.authorization(for: uid)
        let fields = request.fields
        do throws(TPMError) {
            switch (request.kind, fields.count) {
            case (.hello, 0):
                return TPMServiceMessage(.storageRootKey, [tpm.storageRootKey.x, tpm.storageRootKey.y])
            case (.seal, 1), (.seal, 2):
                let secret = SecretBytes(copying: fields[0])
                return TPMServiceMessage(.bytes, [try tpm.seal(secret, authorization: authorization, pcrs: try pcrs(fields.dropFirst()))])
            case (.unseal, 1), (.unseal, 2):
                return try secretAnswer(tpm.unseal(fields[0], authorization: authorization, pcrs: try pcrs(fields.dropFirst())))
            case (.createHMACKey, 0):
                return TPMServiceMessage(.bytes, [try tpm.createHMACKey(authorization: authorization)])
            case (.hmac, 2):
                return try secretAnswer(tpm.hmac(keyBlob: fields[0], SecretBytes(copying: fields[1]), authorization: authorization))
            case (.createECCKey, 0):
                let key = try tpm.createECCKey(authorization: authorization)
                return TPMServiceMessage(.eccKey, [key.blob, key.publicKey])
            case (.sign, 2):
                return TPMServiceMessage(.bytes, [try tpm.sign(keyBlob: fields[0], digest: fields[1], authorization: authorization)])
            case (.keyAgreement, 2):
                return try secretAnswer(tpm.keyAgreement(keyBlob: fields[0], peer: fields[1], authorization: authorization))
            default:
                return TPMServiceMessage(failure: TPMError(code: 0xC0FF_0004, reason: "the TPM service does not know this request"))
            }
        } catch {
            return TPMServiceMessage(failure: error)
        }
    }

    /// The PCR selection a seal or unseal names in its second field: none without one.
    private func pcrs(_ field: ArraySlice<Data>) throws(TPMError) -> PCRSelection {
        guard let mask = field.first else { return .none }
        guard mask.count == 4, let selection = PCRSelection(mask: mask.reduce(UInt32(0)) { $0 << 8 | UInt32($1) }) else {
            throw TPMError(code: 0xC0FF_0003, reason: "the request's PCR selection is not one of PCR 0 to 23")
        }
        return selection
    }

    private func secretAnswer(_ secret: SecretBytes) -> TPMServiceMessage {
        TPMServiceMessage(.bytes, [secret.withUnsafeBytes { Data($0) }])
    }
}
