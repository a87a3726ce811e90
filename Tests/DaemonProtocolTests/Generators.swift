import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations
import Query

/// A deterministic generator (SplitMix64), so every property run is reproducible from its seed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func bytes(_ count: Int) -> [UInt8] { (0..<count).map { _ in UInt8.random(in: 0...255, using: &self) } }
}

/// Random messages for property tests. Values avoid NaN (NaN != NaN would defeat `==`); NaN has its own test.
enum Generate {
    static let texts = ["", "acct", "svce", "é", "e\u{301}x", "日本語", "🔑", "a\u{0}b", "\u{FEFF}bom", "v_Data"]

    static func text(_ random: inout SeededGenerator) -> String {
        if Bool.random(using: &random) { return texts.randomElement(using: &random)! }
        let scalars = (0..<Int.random(in: 0...12, using: &random)).map { _ -> Character in
            Character(Unicode.Scalar(UInt32.random(in: 0x20...0x2FF, using: &random))!)
        }
        return String(scalars)
    }

    static func value(_ random: inout SeededGenerator, depth: Int = 0) -> KeychainValue {
        let containers = depth < 4
        switch Int.random(in: 0..<(containers ? 14 : 11), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .string(text(&random))
        case 3: return .data(Data(random.bytes(Int.random(in: 0...40, using: &random))))
        case 4: return .number(Int64.random(in: .min ... .max, using: &random))
        case 5:
            return .double(
                [0.0, -0.0, .infinity, -.infinity, 1.5, .leastNonzeroMagnitude].randomElement(using: &random)!)
        case 6:
            return .date(
                Date(timeIntervalSinceReferenceDate: Double(Int32.random(in: .min ... .max, using: &random)) / 7))
        case 7: return .uuid(UUID())
        case 8:
            let protection = ProtectionClass.allCases.randomElement(using: &random)!
            return .accessControl(AccessControl(protection: protection, flags: .init(rawValue: random.next())))
        case 9: return .unsupported(typeName: text(&random))
        case 10: return .number(Int64.random(in: -3...3, using: &random))
        case 11:
            return .array((0..<Int.random(in: 0...4, using: &random)).map { _ in value(&random, depth: depth + 1) })
        case 12:
            var attributes: [String: KeychainValue] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                attributes[text(&random)] = value(&random, depth: depth + 1)
            }
            let data = Bool.random(using: &random) ? Data(random.bytes(Int.random(in: 0...40, using: &random))) : nil
            return .itemReference(
                ItemReference(itemClass: ItemClass.allCases.randomElement(using: &random)!, attributes: attributes, data: data))
        default:
            var entries: [String: KeychainValue] = [:]
            for _ in 0..<Int.random(in: 0...4, using: &random) {
                entries[text(&random)] = value(&random, depth: depth + 1)
            }
            return .dictionary(entries)
        }
    }

    static func query(_ random: inout SeededGenerator) -> QueryDictionary {
        var query = QueryDictionary()
        for _ in 0..<Int.random(in: 0...8, using: &random) {
            let key: KeychainValue =
                Int.random(in: 0..<5, using: &random) == 0 ? value(&random, depth: 1) : .string(text(&random))
            query.entries[key] = value(&random, depth: 1)
        }
        return query
    }

    static func duration(_ random: inout SeededGenerator) -> Duration {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: .zero
        case 1: .seconds(Int64.random(in: -100_000...100_000, using: &random))
        case 2: .nanoseconds(Int64.random(in: .min ... .max, using: &random))
        default:
            Duration(
                secondsComponent: Int64.random(in: -(1 << 40)...(1 << 40), using: &random),
                attosecondsComponent: 0) + .milliseconds(Int.random(in: 0...999, using: &random))
        }
    }

    static func passcode(_ random: inout SeededGenerator) -> SecretBytes {
        SecretBytes(copying: random.bytes(Int.random(in: 0...32, using: &random)))
    }

    static func request(_ random: inout SeededGenerator) -> Request {
        switch Int.random(in: 0..<20, using: &random) {
        case 0: .add(query(&random))
        case 18: .addEach((0..<Int.random(in: 0...4, using: &random)).map { _ in query(&random) })
        case 1: .copyMatching(query(&random))
        case 2: .update(query: query(&random), attributesToUpdate: query(&random))
        case 3: .delete(query(&random))
        case 4: .lockStatus
        case 5: .unlock(passcode: passcode(&random))
        case 6: .lock
        case 7: .appsList
        case 8:
            .appsAdd(
                AppRegistration(
                    executablePath: text(&random), applicationIdentifier: text(&random),
                    accessGroups: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
                    pinsExecutableHash: Bool.random(using: &random),
                    mode: Bool.random(using: &random) ? .path : .identityGroup),
                passcode: passcode(&random))
        case 9:
            .appsRemove(
                Bool.random(using: &random)
                    ? .executablePath(text(&random)) : .applicationIdentifier(text(&random)),
                passcode: passcode(&random))
        case 10: .setPasscode(new: passcode(&random))
        case 11: .changePasscode(old: passcode(&random), new: passcode(&random))
        case 12: .removePasscode(current: passcode(&random))
        case 13: .unlockWithPrompt
        case 14: .awaitPrompt
        case 15: .answerPrompt(id: UInt64.random(in: 0 ... .max, using: &random), passcode: Bool.random(using: &random) ? passcode(&random) : nil)
        case 16: .proveOwner(passcode: passcode(&random))
        case 17: .proveOwnerWithPrompt(reason: text(&random))
        default: .setEraseAfterFailedAttempts(Bool.random(using: &random), passcode: passcode(&random))
        }
    }

    static func keystoreError(_ random: inout SeededGenerator) -> KeystoreError {
        let protection = ProtectionClass.allCases.randomElement(using: &random)!
        return switch Int.random(in: 0..<19, using: &random) {
        case 0: .classUnavailable(protection)
        case 1: .classMissing(protection)
        case 2: .wrongPasscode(failedAttempts: Int.random(in: 0...20, using: &random), retryAfter: duration(&random))
        case 3: .throttled(retryAfter: duration(&random))
        case 4: .passcodeTooShort(minimum: Int.random(in: .min ... .max, using: &random))
        case 5: .noPasscodeSet
        case 6: .passcodeAlreadySet
        case 7: .keybagDamaged(reason: text(&random))
        case 8: .deviceKeyDamaged(reason: text(&random))
        case 9: .wrappedKeyCorrupt
        case 10: .erasedAfterFailedAttempts
        case 11: .unavailable(reason: text(&random))
        case 12: .cancelled
        case 13: .notPermitted(reason: text(&random))
        case 14: .readOnly(reason: text(&random))
        case 15: .ownerProofRequired(reason: text(&random))
        case 16: .tpmUnavailable(reason: text(&random))
        case 17: .wrongRecoveryKey
        default: .io(reason: text(&random))
        }
    }

    static func response(_ random: inout SeededGenerator) -> Response {
        switch Int.random(in: 0..<9, using: &random) {
        case 0: .value(nil)
        case 8: .addOutcomes((0..<Int.random(in: 0...4, using: &random)).map { _ in KeychainStatus(code: Int32.random(in: .min ... .max, using: &random)) })
        case 7:
            .prompt(
                Prompt(
                    id: UInt64.random(in: 0 ... .max, using: &random), purpose: Prompt.Purpose.allCases.randomElement(using: &random)!,
                    requester: text(&random), failedAttempts: Int.random(in: 0...20, using: &random)))
        case 6: .failure(KeychainStatus(code: Int32.random(in: .min ... .max, using: &random)), reason: text(&random))
        case 1: .value(value(&random))
        case 2: .status(KeychainStatus(code: Int32.random(in: .min ... .max, using: &random)))
        case 3: .keystoreError(keystoreError(&random))
        case 4:
            .lockStatus(
                KeystoreStatus(
                    passcodeSet: Bool.random(using: &random),
                    lockState: LockState.allCases.randomElement(using: &random)!,
                    failedAttempts: Int.random(in: 0...100, using: &random), retryAfter: duration(&random),
                    eraseAfterFailedAttempts: Bool.random(using: &random),
                    deviceKey: Bool.random(using: &random)
                        ? .file(whyNoTPM: Bool.random(using: &random) ? text(&random) : nil)
                        : .tpm(
                            DeviceKeyProtection.TPMBinding(
                                tcti: text(&random), storageRootKeyFingerprint: text(&random), pcrs: [Int.random(in: 0...23, using: &random)],
                                recoveryKeyPending: Bool.random(using: &random)))))
        default:
            .apps(
                (0..<Int.random(in: 0...3, using: &random)).map { _ in
                    RegisteredApp(
                        executablePath: text(&random), applicationIdentifier: text(&random),
                        accessGroups: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
                        executableHash: Bool.random(using: &random) ? random.bytes(32) : nil,
                        identityGroupID: Bool.random(using: &random) ? UInt32.random(in: 1...UInt32.max, using: &random) : nil)
                })
        }
    }
}

/// A query literal for tests.
struct QueryDictionaryLiteral: ExpressibleByDictionaryLiteral {
    let dictionary: QueryDictionary

    init(dictionaryLiteral elements: (String, KeychainValue)...) {
        dictionary = QueryDictionary(
            Dictionary(elements.map { (KeychainValue.string($0.0), $0.1) }, uniquingKeysWith: { $1 }))
    }
}
