import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations
import Query
import Testing

@Suite("Message round trips", .timeLimit(.minutes(10)))
struct RoundTripTests {
    static let everyRequest: [Request] = [
        .add([.string(QueryKey.itemClass): "genp", .string(QueryKey.valueData): .data(Data([1, 2, 3]))]),
        .copyMatching([.string(QueryKey.returnData): true, .string(QueryKey.matchLimit): "m_LimitAll"]),
        .update(query: [.string(QueryKey.account): "alice"], attributesToUpdate: [.string(QueryKey.label): "new"]),
        .delete([:]),
        .lockStatus,
        .unlock(passcode: SecretBytes(copying: Array("1234 ü".utf8))),
        .lock,
        .proveOwner(passcode: SecretBytes(copying: Array("1234".utf8))),
        .proveOwnerWithPrompt(reason: "serve your SSH keys"),
        .appsList,
        .appsAdd(
            AppRegistration(
                executablePath: "/usr/bin/tool", applicationIdentifier: "TEAM.tool",
                accessGroups: ["TEAM.tool", "TEAM.shared"], pinsExecutableHash: true),
            passcode: SecretBytes(copying: Array("1234".utf8))),
        .appsAdd(
            AppRegistration(
                executablePath: "/usr/bin/tool", applicationIdentifier: "TEAM.tool", accessGroups: [],
                pinsExecutableHash: false, mode: .identityGroup),
            passcode: SecretBytes(copying: Array("1234".utf8))),
        .appsAdd(
            AppRegistration(
                executablePath: "backup.service", applicationIdentifier: "TEAM.backup", accessGroups: ["TEAM.backup"],
                pinsExecutableHash: false, mode: .systemdUnit),
            passcode: SecretBytes(copying: Array("1234".utf8))),
        .appsRemove(.executablePath("/usr/bin/tool"), passcode: SecretBytes(copying: [])),
        .appsRemove(.applicationIdentifier("TEAM.tool"), passcode: SecretBytes(copying: [0xFF])),
        .setPasscode(new: SecretBytes(copying: Array("new".utf8))),
        .changePasscode(old: SecretBytes(copying: Array("old".utf8)), new: SecretBytes(copying: Array("new".utf8))),
        .removePasscode(current: SecretBytes(copying: Array("cur".utf8))),
        .setEraseAfterFailedAttempts(true, passcode: SecretBytes(copying: Array("cur".utf8))),
        .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .whenUnlockedThisDeviceOnly, flags: [.privateKeyUsage, .userPresence]))),
        .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .afterFirstUnlock, flags: .privateKeyUsage), kind: .ed25519)),
        .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .whenUnlocked, flags: .privateKeyUsage), tiedToItem: true)),
        .useTokenKey(TokenKeyUse(key: Data([1, 2, 3]), operation: .sign, algorithm: "algid:sign:ECDSA:message-X962:SHA256", input: Data("m".utf8))),
        .useTokenKey(
            TokenKeyUse(
                key: Data([9]), operation: .keyExchange(requestedSize: 32, sharedInfo: Data([7])), algorithm: "algid:keyexchange:ECDH",
                input: Data([4]), authentication: TokenKeyAuthentication(context: AuthenticationContextID.random(), prompt: "sign in", interactive: false))),
        .useTokenKey(TokenKeyUse(key: Data(), operation: .keyExchange(requestedSize: nil, sharedInfo: nil), algorithm: "", input: Data())),
        .useTokenKey(TokenKeyUse(key: Data([5]), operation: .decrypt, algorithm: "a", input: Data([6]))),
        .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: []), kind: .mlkem768)),
        .createTokenKey(TokenKeyCreation(accessControl: AccessControl(protection: .whenUnlocked, flags: .userPresence), kind: .mldsa87)),
        .useTokenKey(TokenKeyUse(key: Data([7]), operation: .decapsulate, algorithm: "algid:kem:ML-KEM", input: Data(count: 1088))),
        .useTokenKey(TokenKeyUse(key: Data([7, 8]), operation: .checkSeal, algorithm: "", input: Data())),
        .useTokenKey(TokenKeyUse(key: Data([8]), operation: .signWithContext(Data("ctx".utf8)), algorithm: "algid:sign:ML-DSA:message", input: Data([1]))),
        .useTokenKey(TokenKeyUse(key: Data([8]), operation: .signWithContext(Data()), algorithm: "algid:sign:ML-DSA:message", input: Data())),
        .syncState(changedFrom: nil),
        .syncState(changedFrom: SyncState(isSyncing: false)),
        .syncState(
            changedFrom: SyncState(
                isSyncing: true, pending: 3, mirrored: 10_000, waitingForUnlock: 2, conflicts: 1,
                lastRun: .synced(Self.syncReport, at: Date(timeIntervalSince1970: 1_795_000_000.25)))),
        .syncNow,
        .auditRecords(AuditRead(passcode: SecretBytes(copying: Array("1234".utf8)), after: 7, limit: 50, verify: true)),
        .auditRecords(AuditRead(passcode: nil)),
        .auditSetting(AuditSetting(passcode: SecretBytes(copying: Array("1234".utf8)), refuseUnrecordedReads: true)),
        .auditSetting(AuditSetting(passcode: nil, refuseUnrecordedReads: false)),
        .auditSetting(AuditSetting(passcode: nil)),
        .syncAccount(.setUp(server: "postgresql://u@db.example.com/c", password: SecretBytes(copying: Array("pw".utf8)), deviceName: "laptop")),
        .syncAccount(
            .join(
                server: "postgresql:///c", password: SecretBytes(copying: Array("pw".utf8)), deviceName: "d",
                recoveryKey: SecretBytes(copying: Array("ABCD".utf8)))),
        .syncAccount(.requestToJoin(server: "postgresql:///c", password: SecretBytes(copying: []), deviceName: "")),
        .syncAccount(.awaitJoin), .syncAccount(.approve(code: "K7M2Q-9XD4B")), .syncAccount(.devices),
        .syncAccount(.removeDevice("desktop")), .syncAccount(.leave),
        .deviceKeyBinding(.bindTPM(passcode: nil)), .deviceKeyBinding(.bindTPM(passcode: SecretBytes(copying: Array("1234".utf8)))),
        .deviceKeyBinding(.unbindTPM(passcode: SecretBytes(copying: Array("1234".utf8)))),
        .deviceKeyBinding(.bindTPM(passcode: nil, pcrs: [0, 7, 23])), .deviceKeyBinding(.bindTPM(passcode: nil, pcrs: [])),
        .deviceKeyBinding(.recoveryKey(renew: true, passcode: nil)), .deviceKeyBinding(.recoveryKey(renew: false, passcode: SecretBytes(copying: [1]))),
        .deviceKeyBinding(.recover(recoveryKey: SecretBytes(copying: Array("ABCD-EFGH".utf8)), passcode: SecretBytes(copying: Array("pw".utf8)))),
        .deviceKeyBinding(.recover(recoveryKey: SecretBytes(copying: Array("ABCD".utf8)), passcode: nil)),
    ]

    static let syncReport: SyncReport = {
        var report = SyncReport()
        (report.sent, report.received, report.applied, report.conflicts) = (1, 2, 3, 4)
        (report.refused, report.waiting, report.collected) = (5, 6, 7)
        return report
    }()

    static let everyResponse: [Response] = [
        .value(nil),
        .value(.data(Data("secret".utf8))),
        .value(.array([["acct": "alice", "cdat": .date(Date(timeIntervalSinceReferenceDate: 1.25))]])),
        .value(.itemReference(ItemReference(itemClass: .key, attributes: ["class": "keys", "kcls": 1], data: Data([4, 1])))),
        .value(
            .dictionary([
                "class": "keys", "type": 73,
                "v_Ref": .itemReference(ItemReference(itemClass: .key, attributes: ["class": "keys", "type": 73], data: nil)),
            ])),
        .status(.success),
        .status(.itemNotFound),
        .status(KeychainStatus(code: 12345)),
        .keystoreError(.classUnavailable(.whenUnlocked)),
        .keystoreError(.classMissing(.whenPasscodeSetThisDeviceOnly)),
        .keystoreError(.wrongPasscode(failedAttempts: 3, retryAfter: .seconds(60))),
        .keystoreError(.throttled(retryAfter: .milliseconds(-1500))),
        .keystoreError(.passcodeTooShort(minimum: 4)),
        .keystoreError(.noPasscodeSet),
        .keystoreError(.passcodeAlreadySet),
        .keystoreError(.keybagDamaged(reason: "bad tag")),
        .keystoreError(.deviceKeyDamaged(reason: "short file")),
        .keystoreError(.wrappedKeyCorrupt),
        .keystoreError(.erasedAfterFailedAttempts),
        .keystoreError(.io(reason: "EACCES")),
        .keystoreError(.unavailable(reason: "no daemon")),
        .keystoreError(.cancelled),
        .failure(.param, reason: "G4: kSecAttrServer is not an attribute of kSecClassGenericPassword"),
        .lockStatus(
            KeystoreStatus(
                passcodeSet: true, lockState: .beforeFirstUnlock, failedAttempts: 2, retryAfter: .seconds(1),
                eraseAfterFailedAttempts: false)),
        .tokenKey(TokenKey(sealed: Data([1, 2]), publicKey: Data([4, 5]), accessControl: AccessControl(protection: .always, flags: .privateKeyUsage))),
        .apps([]),
        .apps([
            RegisteredApp(executablePath: "/a", applicationIdentifier: "T.a", accessGroups: [], executableHash: nil),
            RegisteredApp(
                executablePath: "/b", applicationIdentifier: "T.b", accessGroups: ["T.b"],
                executableHash: Array(repeating: 7, count: 32)),
            RegisteredApp(
                executablePath: "/c", applicationIdentifier: "T.c", accessGroups: [], executableHash: nil,
                identityGroupID: 998),
            RegisteredApp(
                executablePath: "backup.service", applicationIdentifier: "T.backup", accessGroups: ["T.backup"], executableHash: nil,
                isSystemdUnit: true),
        ]),
        .syncState(SyncState(isSyncing: false)),
        .syncState(SyncState(isSyncing: true, pending: 1, lastRun: .failed(reason: "the server is away", at: Date(timeIntervalSince1970: 0)))),
        .syncReport(syncReport),
        .syncReport(SyncReport()),
        .auditPage(
            AuditPage(
                records: [
                    AuditRecord(
                        sequence: 12, time: Date(timeIntervalSince1970: 1_795_000_000.5), event: .secretRead, operation: "copyMatching",
                        caller: CallerIdentity(uid: 1000, pid: 42, program: "/usr/bin/app", kind: .identityGroup(gid: 990)), accessGroups: ["T.a"],
                        itemClass: "genp", items: [Data([1, 2, 3])], status: 0)
                ], hasMore: true, check: .intact(records: 12, firstSequence: 1, lastSequence: 12, rotatedAway: 0))),
        .auditPage(AuditPage(records: [], hasMore: false, check: .damaged(file: "/k/audit/head", sequence: 4, reason: "records 4–5 were removed"))),
        .auditPage(AuditPage(records: [], hasMore: false, check: .damaged(file: "/k/audit", sequence: nil, reason: "r"))),
        .auditPage(AuditPage(records: [], hasMore: false)),
        .syncAccount(.done), .syncAccount(.recoveryKey(SecretBytes(copying: Array("KEY".utf8)))), .syncAccount(.pairingCode("K7M2Q-9XD4B")),
        .syncAccount(.device(SyncDeviceSummary(id: UUID(), name: "laptop", isThisDevice: false, isRecoveryKey: false))),
        .syncAccount(
            .devices([
                SyncDeviceSummary(id: UUID(), name: "laptop", isThisDevice: true, isRecoveryKey: false),
                SyncDeviceSummary(id: UUID(), name: "recovery key", isThisDevice: false, isRecoveryKey: true),
            ])),
        .syncAccount(.devices([])),
        .recoveryKey(SecretBytes(copying: Array("ABCD-EFGH".utf8))),
        .keystoreError(.tpmUnavailable(reason: "bound to another TPM")), .keystoreError(.wrongRecoveryKey),
        .lockStatus(
            KeystoreStatus(
                passcodeSet: true, lockState: .locked, failedAttempts: 0, retryAfter: .zero, eraseAfterFailedAttempts: true,
                deviceKey: .tpm(
                    DeviceKeyProtection.TPMBinding(tcti: "device:/dev/tpmrm0", storageRootKeyFingerprint: "ab12", pcrs: [7], recoveryKeyPending: true)))),
        .lockStatus(
            KeystoreStatus(
                passcodeSet: false, lockState: .unlocked, failedAttempts: 0, retryAfter: .zero, eraseAfterFailedAttempts: false,
                deviceKey: .file(whyNoTPM: "no TPM is selected"))),
    ]

    @Test(arguments: everyRequest)
    func everyRequestRoundTrips(request: Request) throws {
        let envelope = RequestEnvelope(id: 0xDEAD_BEEF_0000_0001, request: request)
        let payload = try envelope.encodedPayload()
        #expect(try RequestEnvelope(decodingPayload: payload) == envelope)
    }

    @Test(arguments: everyResponse)
    func everyResponseRoundTrips(response: Response) throws {
        let envelope = ResponseEnvelope(id: 42, response: response)
        let payload = try envelope.encodedPayload()
        #expect(try ResponseEnvelope(decodingPayload: payload) == envelope)
    }

    @Test func everyKeychainValueCaseRoundTrips() throws {
        let values: [KeychainValue] = [
            .string("s"), .data(Data([0, 255])), .number(.min), .number(.max), .double(-0.0), .double(.infinity),
            .bool(true),
            .bool(false), .date(Date(timeIntervalSinceReferenceDate: -1e9)), .null, .uuid(UUID()), .array([]),
            .dictionary([:]),
            .accessControl(AccessControl(protection: .afterFirstUnlockThisDeviceOnly, flags: [.userPresence, .or])),
            .unsupported(typeName: "SecCertificate"),
            .itemReference(ItemReference(itemClass: .key, attributes: [:], data: nil)),
            .itemReference(
                ItemReference(
                    itemClass: .key, attributes: ["class": "keys", "kcls": 1, "atag": .data(Data([7])), "sdat": .date(.distantPast)],
                    data: Data([0x04, 1, 2, 3]))),
            .itemReference(ItemReference(itemClass: .certificate, attributes: ["nested": [["a": .null]]], data: Data())),
        ]
        for value in values {
            let envelope = ResponseEnvelope(id: 1, response: .value(value))
            #expect(try ResponseEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
        }
    }

    /// Non-string keys must reach the daemon's parser, which answers them with Apple's statuses.
    @Test func nonStringQueryKeysRoundTrip() throws {
        let query = QueryDictionary([
            .number(7): "x", .bool(true): .null, .data(Data([1])): .array([1, 2]), "acct": "a",
        ])
        let envelope = RequestEnvelope(id: 9, request: .copyMatching(query))
        #expect(try RequestEnvelope(decodingPayload: try envelope.encodedPayload()) == envelope)
    }

    /// String keys are sorted without being encoded one by one: their order must still be that of their
    /// encodings (tag, length, UTF-8), which the decoder demands: shorter keys first, then by bytes.
    @Test func stringKeysSortAsTheirEncodingsDo() throws {
        let keys = ["b", "aa", "\u{E9}", "a", "ab", "\u{1F511}", "svce", "class", "r_Data", "acct"]
        let expected = ["a", "b", "aa", "ab", "\u{E9}", "acct", "svce", "\u{1F511}", "class", "r_Data"]
        func encodedKey(_ key: String) -> Data { Data([0x03, 0, 0, 0, UInt8(key.utf8.count)] + Array(key.utf8)) }
        func offsets(in payload: Data) -> [Int] { expected.map { payload.range(of: encodedKey($0))!.lowerBound } }
        let query = QueryDictionary(Dictionary(uniqueKeysWithValues: keys.map { (KeychainValue.string($0), KeychainValue.null) }))
        let payload = try RequestEnvelope(id: 1, request: .copyMatching(query)).encodedPayload()
        #expect(offsets(in: payload) == offsets(in: payload).sorted())
        #expect(try RequestEnvelope(decodingPayload: payload) == RequestEnvelope(id: 1, request: .copyMatching(query)))
        // A key that is no string takes the general path, which sorts whole encodings: the same order.
        var mixed = query
        mixed.entries[.number(1)] = .null
        let mixedPayload = try RequestEnvelope(id: 1, request: .copyMatching(mixed)).encodedPayload()
        #expect(offsets(in: mixedPayload) == offsets(in: mixedPayload).sorted())
        #expect(try RequestEnvelope(decodingPayload: mixedPayload) == RequestEnvelope(id: 1, request: .copyMatching(mixed)))
    }

    @Test func nanBitPatternsSurviveExactly() throws {
        let quietNaN = Double(bitPattern: 0x7FF8_0000_0000_1234)
        let envelope = ResponseEnvelope(
            id: 1, response: .value(.array([.double(quietNaN), .date(Date(timeIntervalSinceReferenceDate: -.nan))])))
        let payload = try envelope.encodedPayload()
        let decoded = try ResponseEnvelope(decodingPayload: payload)
        #expect(try decoded.encodedPayload() == payload)
        guard case .value(.array(let elements)?) = decoded.response, case .double(let real) = elements[0] else {
            Issue.record("wrong shape")
            return
        }
        #expect(real.bitPattern == quietNaN.bitPattern)
    }

    @Test func generatedRequestsRoundTripCanonically() throws {
        var random = SeededGenerator(seed: 0xC0FF_EE01)
        for index in 0..<3_000 {
            let envelope = RequestEnvelope(id: random.next(), request: Generate.request(&random))
            let payload = try envelope.encodedPayload()
            let decoded = try RequestEnvelope(decodingPayload: payload)
            #expect(decoded == envelope, "request \(index)")
            #expect(try decoded.encodedPayload() == payload, "request \(index)")
        }
    }

    @Test func generatedResponsesRoundTripCanonically() throws {
        var random = SeededGenerator(seed: 0xC0FF_EE02)
        for index in 0..<3_000 {
            let envelope = ResponseEnvelope(id: random.next(), response: Generate.response(&random))
            let payload = try envelope.encodedPayload()
            let decoded = try ResponseEnvelope(decodingPayload: payload)
            #expect(decoded == envelope, "response \(index)")
            #expect(try decoded.encodedPayload() == payload, "response \(index)")
        }
    }

    /// Dictionaries have no order; the encoding sorts their keys, so equal dictionaries encode equally.
    @Test func equalDictionariesEncodeIdentically() throws {
        var random = SeededGenerator(seed: 3)
        for _ in 0..<200 {
            let query = Generate.query(&random)
            let shuffled = QueryDictionary(Dictionary(uniqueKeysWithValues: query.entries.shuffled(using: &random)))
            #expect(
                try RequestEnvelope(id: 1, request: .add(query)).encodedPayload()
                    == RequestEnvelope(id: 1, request: .add(shuffled)).encodedPayload())
        }
    }

    @Test func framedMessagesDecodeThroughTheFrameDecoder() throws {
        var decoder = FrameDecoder(limits: .requests)
        var stream = Data()
        for (index, request) in Self.everyRequest.enumerated() {
            stream.append(try RequestEnvelope(id: UInt64(index), request: request).encodedFrame())
        }
        decoder.append(stream)
        var decoded: [Request] = []
        while let payload = try decoder.nextFrame() {
            decoded.append(try RequestEnvelope(decodingPayload: payload).request)
        }
        try decoder.finish()
        #expect(decoded == Self.everyRequest)
    }

    @Test func passcodeIsRedactedInDescriptions() {
        let request = Request.unlock(passcode: SecretBytes(copying: Array("hunter2".utf8)))
        var dumped = ""
        dump(request, to: &dumped)
        for text in [String(describing: request), String(reflecting: request), dumped] {
            #expect(!text.contains("hunter2"))
            #expect(!text.contains("104"))  // "h"
        }
        #expect(String(describing: SecretBytes(copying: [1, 2, 3])) == "<redacted 3 bytes>")
    }

    @Test func lockStateRawValuesMatchKeystore() {
        #expect(LockState.allCases.map(\.rawValue) == ["before-first-unlock", "unlocked", "locked"])
    }
}
