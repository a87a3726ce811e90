import Crypto
import Engine
import Foundation
import KeychainModel
import SyncFormat
import SyncServer

/// What a device keeps of its sync account, in the keychain's sync ledger: the server and the password it connects
/// with, its own identity, the account keys, the account's anchor and the device log's head it verified last. The
/// password, the identity's seed and the keys are sealed by the keystore (``KeychainEngine/sealForLedger(_:label:)``).
struct LocalAccount: Sendable {
    var endpoint: ServerEndpoint
    var password: String
    var device: DeviceIdentity
    var keys: AccountKeys
    var anchor: Data
    var head: (position: Int64, hash: Data)

    private enum Name {
        static let server = "server"
        static let password = "password"
        static let device = "device"
        static let keys = "account-keys"
        static let anchor = "anchor"
        static let head = "log-head"
        static let all = [server, password, device, keys, anchor, head]
    }

    /// Whether the keychain has joined an account.
    static func isSetUp(_ engine: KeychainEngine) throws(SyncError) -> Bool {
        try SyncError.mapping { try engine.syncSettings([Name.device]) }[Name.device] != nil
    }

    /// The account as the ledger holds it. With `identities`, a device identity opened before from the same sealed
    /// setting is taken from it rather than derived again from its seed (which costs a post-quantum key generation).
    static func load(from engine: KeychainEngine, identities: DeviceIdentityCache? = nil) throws(SyncError) -> LocalAccount {
        let values = try SyncError.mapping { try engine.syncSettings(Name.all) }
        guard let server = values[Name.server], let sealedPassword = values[Name.password], let sealedDevice = values[Name.device],
            let sealedKeys = values[Name.keys], let anchor = values[Name.anchor], let head = values[Name.head], head.count == 40
        else {
            throw values.isEmpty ? .notSetUp : .damaged("some of the sync settings are missing")
        }
        let endpoint: ServerEndpoint
        do {
            endpoint = try ServerEndpoint(dsn: String(decoding: server, as: UTF8.self), defaultUser: "")
        } catch {
            throw .damaged("the server setting: \(error)")
        }
        let password = try SyncError.mapping { try engine.openFromLedger(sealedPassword, label: Name.password) }
        let identity: DeviceIdentity
        if let cached = identities?.identity(sealedAs: sealedDevice) {
            identity = cached
        } else {
            identity = try decodeDevice(try SyncError.mapping { try engine.openFromLedger(sealedDevice, label: Name.device) })
            identities?.keep(identity, sealedAs: sealedDevice)
        }
        let keys = try SyncError.mapping { try engine.openFromLedger(sealedKeys, label: Name.keys) }
        return LocalAccount(
            endpoint: endpoint, password: password.withUnsafeBytes { String(decoding: $0, as: UTF8.self) },
            device: identity, keys: try keys.withUnsafeBytes { (bytes) throws(SyncError) in try AccountKeys(encoding: bytes) },
            anchor: anchor, head: (head.prefix(8).reduce(Int64(0)) { $0 << 8 | Int64($1) }, head.suffix(32)))
    }

    /// Every setting, sealed where secret, to store.
    func settings(sealedBy engine: KeychainEngine) throws(SyncError) -> [String: Data] {
        var device = Data()
        self.device.withSeed { device.append(contentsOf: $0) }
        withUnsafeBytes(of: self.device.publicIdentity.id.uuid) { device.append(contentsOf: $0) }
        device.append(Data(self.device.publicIdentity.name.utf8))
        defer { device.resetBytes(in: 0..<device.count) }
        let sealedKeys = try SyncError.mapping { try keys.withEncoding { try engine.sealForLedger(SecretBytes(copying: $0), label: Name.keys) } }
        return [
            Name.server: Data(endpoint.dsn.utf8),
            Name.password: try SyncError.mapping { try engine.sealForLedger(SecretBytes(copying: Array(password.utf8)), label: Name.password) },
            Name.device: try SyncError.mapping { try engine.sealForLedger(SecretBytes(copying: device), label: Name.device) },
            Name.keys: sealedKeys,
            Name.anchor: anchor,
            Name.head: headEncoding,
        ]
    }

    /// The keys and the head, after they changed.
    func trustSettings(sealedBy engine: KeychainEngine) throws(SyncError) -> [String: Data?] {
        let sealedKeys = try SyncError.mapping { try keys.withEncoding { try engine.sealForLedger(SecretBytes(copying: $0), label: Name.keys) } }
        return [Name.keys: sealedKeys, Name.head: headEncoding]
    }

    private var headEncoding: Data {
        withUnsafeBytes(of: head.position.bigEndian) { Data($0) } + head.hash
    }

    private static func decodeDevice(_ device: SecretBytes) throws(SyncError) -> DeviceIdentity {
        do {
            return try device.withUnsafeBytes { bytes in
                guard bytes.count >= 48 else { throw SyncError.damaged("the device identity is damaged") }
                let id = UUID(uuid: UnsafeRawBufferPointer(rebasing: bytes[32..<48]).load(as: uuid_t.self))
                let name = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[48...]), as: UTF8.self)
                return try DeviceIdentity(seed: .init(data: UnsafeRawBufferPointer(rebasing: bytes[0..<32])), id: id, name: name)
            }
        } catch let error as SyncError {
            throw error
        } catch {
            throw .damaged("the device identity is damaged")
        }
    }
}

extension SyncError {
    /// Runs `body`, turning a keychain refusal into ``SyncError/keychain(status:reason:)``.
    static func mapping<T>(_ body: () throws -> T) throws(SyncError) -> T {
        do {
            return try body()
        } catch {
            throw converted(error)
        }
    }

    /// Runs a server call, turning its failure into ``SyncError/server(_:)``.
    static func server<T>(_ body: () async throws -> T) async throws(SyncError) -> T {
        do {
            return try await body()
        } catch {
            throw converted(error)
        }
    }

    /// The sync error `error` stands for.
    static func converted(_ error: any Error) -> SyncError {
        switch error {
        case let error as SyncError: error
        case let error as SyncServerError: .server(error.description)
        case let error as EngineRefusal: .keychain(status: error.status.code, reason: error.message ?? "\(error.status.code)")
        default: .damaged("\(error)")
        }
    }
}
