import Crypto
import CryptoExtras
import Foundation
import SyncFormat

/// The short code a joining device shows and a trusted device's owner types: ten characters of Crockford's base32
/// (50 bits). Both devices derive from it where the pairing lives on the server and a key that authenticates what
/// each leaves there, so a server that does not know the code can neither put its own device in the joiner's place
/// nor answer in the approver's. Both derive through PBKDF2 (210,000 rounds), so that a server trying every code
/// against what it saw needs about 2^67 hash computations, far more than a pairing's ten minutes allow.
public struct PairingCode: Sendable, Equatable {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    /// How long a request may wait for its answer.
    public static let lifetime: Double = 600
    private let characters: String
    private let master: SymmetricKey

    /// A new random code.
    public init() {
        var generator = SystemRandomNumberGenerator()
        characters = String((0..<10).map { _ in Self.alphabet[Int(generator.next(upperBound: UInt8(32)))] })
        master = Self.master(characters)
    }

    public static func == (left: PairingCode, right: PairingCode) -> Bool { left.characters == right.characters }

    private static func master(_ characters: String) -> SymmetricKey {
        // 210,000 rounds is PBKDF2's own minimum, so this does not throw.
        (try? KDF.Insecure.PBKDF2.deriveKey(
            from: Data(characters.utf8), salt: Data("coffer-sync-pairing-v1".utf8), using: .sha256, outputByteCount: 32, rounds: 210_000))
            ?? SymmetricKey(data: SHA256.hash(data: Data(characters.utf8)))
    }

    /// The code a person typed (case, spaces and dashes do not matter; `O`, `I`, `L` read as `0`, `1`, `1`).
    public init(text: String) throws(SyncError) {
        var normalised = ""
        for character in text.uppercased() where !" -\t\n".contains(character) {
            let mapped: Character = character == "O" ? "0" : (character == "I" || character == "L") ? "1" : character
            guard Self.alphabet.contains(mapped) else { throw .invalidCode("a pairing code holds letters and digits only, not \(character)") }
            normalised.append(mapped)
        }
        guard normalised.count == 10 else { throw .invalidCode("a pairing code is 10 characters long, as `coffer sync join` shows it") }
        characters = normalised
        master = Self.master(normalised)
    }

    /// The code as shown: two groups of five.
    public var text: String { "\(characters.prefix(5))-\(characters.suffix(5))" }

    /// Where the pairing lives on the server.
    var pairing: UUID {
        let bytes = Array(derived("id").withUnsafeBytes { Data($0) })
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], (bytes[6] & 0x0f) | 0x80, bytes[7], (bytes[8] & 0x3f) | 0x80,
                bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    /// The joining device's request: its public identity, authenticated.
    func request(for device: DevicePublicIdentity) -> Data {
        let identity = device.encoded
        return identity + authentication(of: Data("request".utf8) + identity)
    }

    /// The identity a request carries, if it was made with this code.
    func device(fromRequest request: Data) throws(SyncError) -> DevicePublicIdentity {
        guard request.count > 32 else { throw .untrustedServer("the pairing request is not one") }
        let identity = request.prefix(request.count - 32)
        guard authentication(of: Data("request".utf8) + identity) == request.suffix(32) else {
            throw .untrustedServer("the pairing request was not made with this code")
        }
        do {
            return try DevicePublicIdentity(encoded: Data(identity))
        } catch {
            throw .untrustedServer("the pairing request is not one")
        }
    }

    /// The approving device's answer: the account's anchor and the log's head after the joiner was added, authenticated.
    func response(anchor: Data, head: (position: Int64, hash: Data)) -> Data {
        let body = anchor + withUnsafeBytes(of: head.position.bigEndian) { Data($0) } + head.hash
        return body + authentication(of: Data("response".utf8) + body)
    }

    /// The anchor and head an answer carries, if it was made with this code.
    func accept(response: Data) throws(SyncError) -> (anchor: Data, head: (position: Int64, hash: Data)) {
        guard response.count == 32 + 8 + 32 + 32 else { throw .untrustedServer("the pairing answer is not one") }
        let body = response.prefix(72)
        guard authentication(of: Data("response".utf8) + body) == response.suffix(32) else {
            throw .untrustedServer("the pairing answer was not made with this code")
        }
        let bytes = [UInt8](body)
        return (Data(bytes[0..<32]), (bytes[32..<40].reduce(Int64(0)) { $0 << 8 | Int64($1) }, Data(bytes[40..<72])))
    }

    private func authentication(of message: Data) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: message, using: derived("mac")))
    }

    private func derived(_ purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: master, info: Data("coffer-sync-pairing-\(purpose)-v1".utf8), outputByteCount: 32)
    }
}
