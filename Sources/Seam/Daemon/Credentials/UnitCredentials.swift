import ProgramIdentity
import Foundation
import KeychainModel
import KeychainOperations
import Query

/// Finds the secret a systemd unit asked for: the unit's registration (in the one keychain whose owner registered
/// it), then the generic password whose service is the credential's name, read with the unit's access groups only
/// and without a prompt, as any other caller's read (and recorded in that keychain's audit journal).
struct UnitCredentials: Sendable {
    let keychains: UserKeychains

    /// Why a credential was not given, for the log (never a secret).
    struct Refusal: Error, CustomStringConvertible {
        let description: String
    }

    /// The secret `request` names, read for the unit `peer` is starting.
    func secret(for request: CredentialRequest, peerPID: Int32) throws(Refusal) -> Data {
        let owners = keychains.users(registeringUnit: request.unit)
        guard let uid = owners.first else {
            throw Refusal(description: "no keychain registered \(request.unit) (coffer apps add --unit \(request.unit))")
        }
        guard owners.count == 1 else {
            throw Refusal(
                description:
                    "\(request.unit) is registered in the keychains of several users (uids \(owners.map(String.init).joined(separator: ", "))), so none is used"
            )
        }
        let keychain: UserKeychain
        do {
            keychain = try keychains.keychain(for: uid)
        } catch {
            throw Refusal(description: "the keychain of uid \(uid) cannot be opened: \(error)")
        }
        guard let unit = keychain.unit(named: request.unit) else { throw Refusal(description: "\(request.unit) is no longer registered") }
        let query: QueryDictionary = [
            .string(QueryKey.itemClass): .string(ItemClass.genericPassword.rawValue), .string(QueryKey.service): .string(request.credential),
            .string(QueryKey.returnData): .bool(true), .string(QueryKey.matchLimit): .string(QueryConstant.matchLimitOne),
            .string(QueryKey.useAuthenticationUI): .string(QueryConstant.authenticationUIFail),
        ]
        let caller = CallerContext(
            accessGroups: .list(unit.accessGroups), identity: CallerIdentity(uid: uid, pid: peerPID, program: unit.name, kind: .systemdUnit))
        switch keychain.service.handle(.copyMatching(query), caller: caller) {
        case .value(.data(let secret)?):
            return secret
        case let answer:
            let status = answer.auditStatus
            let why =
                switch status {
                case KeychainStatus.itemNotFound.code: "no generic password with service \(request.credential) among \(unit.name)'s access groups"
                case KeychainStatus.interactionNotAllowed.code: "the keychain is locked, or the item needs a person"
                default: "the read failed with status \(status)"
                }
            throw Refusal(description: why)
        }
    }
}
