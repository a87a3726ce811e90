// Writes the seed corpus: every request and response kind, framed and as a bare payload, plus a few
// malformed frames. Run through `Fuzz/run.sh seeds`.
import DaemonProtocol
import Foundation
import KeychainModel
import KeychainOperations
import Query

let folder = URL(fileURLWithPath: CommandLine.arguments[1], isDirectory: true)
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)

func write(_ name: String, _ bytes: Data) throws {
    try bytes.write(to: folder.appendingPathComponent("seed-\(name)"))
}

let query = QueryDictionary([
    "class": "genp", "acct": "alice", "svce": "example.com", "v_Data": .data(Data("secret".utf8)),
    "pdmn": "ak", "sync": .bool(false), "r_Data": true, "m_Limit": "m_LimitAll", .number(7): .null,
    "accc": .accessControl(AccessControl(protection: .whenUnlocked, flags: [.userPresence])),
    "UUID": .uuid(UUID(uuid: (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16))),
    "cdat": .date(Date(timeIntervalSinceReferenceDate: 700_000_000.5)), "port": .double(-0.0),
    "m_ItemList": .array([.data(Data([1, 2])), .dictionary(["a": 1, "b": .unsupported(typeName: "SecKey")])]),
])
let requests: [(String, Request)] = [
    ("add", .add(query)), ("copy", .copyMatching(["class": "genp", "r_Attributes": true])),
    ("update", .update(query: ["acct": "alice"], attributesToUpdate: ["labl": "new"])), ("delete", .delete([:])),
    ("lockstatus", .lockStatus), ("unlock", .unlock(passcode: SecretBytes(copying: Array("1234".utf8)))), ("lock", .lock),
    ("appslist", .appsList),
    (
        "appsadd",
        .appsAdd(
            AppRegistration(
                executablePath: "/usr/bin/x", applicationIdentifier: "T.x", accessGroups: ["T.x", "T.g"],
                pinsExecutableHash: true),
            passcode: SecretBytes(copying: Array("1234".utf8)))
    ),
    ("appsremove", .appsRemove(.applicationIdentifier("T.x"), passcode: SecretBytes(copying: Array("1234".utf8)))),
    ("setpasscode", .setPasscode(new: SecretBytes(copying: Array("1234".utf8)))),
    ("changepasscode", .changePasscode(old: SecretBytes(copying: Array("1234".utf8)), new: SecretBytes(copying: Array("5678".utf8)))),
    ("removepasscode", .removePasscode(current: SecretBytes(copying: Array("5678".utf8)))),
    ("seterase", .setEraseAfterFailedAttempts(true, passcode: SecretBytes(copying: Array("5678".utf8)))),
    ("unlockwithprompt", .unlockWithPrompt), ("awaitprompt", .awaitPrompt),
    ("answerprompt", .answerPrompt(id: 7, passcode: SecretBytes(copying: Array("1234".utf8)))),
    ("answerprompt-cancel", .answerPrompt(id: 7, passcode: nil)),
]
let responses: [(String, Response)] = [
    ("value-none", .value(nil)), ("value", .value(.array([.dictionary(["acct": "a", "v_Data": .data(Data([0]))])]))),
    ("status", .status(.itemNotFound)),
    ("kserror-wrong", .keystoreError(.wrongPasscode(failedAttempts: 2, retryAfter: .seconds(60)))),
    ("kserror-io", .keystoreError(.io(reason: "EIO"))),
    ("kserror-class", .keystoreError(.classUnavailable(.whenUnlocked))),
    ("kserror-notpermitted", .keystoreError(.notPermitted(reason: "only the coffer command"))),
    ("kserror-readonly", .keystoreError(.readOnly(reason: "the keychain folder is read-only"))),
    ("prompt", .prompt(Prompt(id: 7, purpose: .unlock, requester: "/usr/bin/x (pid 1)", failedAttempts: 1))),
    (
        "lockstatus-result",
        .lockStatus(
            KeystoreStatus(
                passcodeSet: true, lockState: .locked, failedAttempts: 1, retryAfter: .milliseconds(1500),
                eraseAfterFailedAttempts: true))
    ),
    (
        "apps",
        .apps([
            RegisteredApp(
                executablePath: "/x", applicationIdentifier: "T.x", accessGroups: ["T.x"],
                executableHash: Array(repeating: 0xAB, count: 32))
        ])
    ),
]
for (name, request) in requests {
    let envelope = RequestEnvelope(id: 1, request: request)
    try write("request-\(name).frame", try envelope.encodedFrame())
    try write("request-\(name).payload", try envelope.encodedPayload())
}
for (name, response) in responses {
    let envelope = ResponseEnvelope(id: 2, response: response)
    try write("response-\(name).frame", try envelope.encodedFrame(limits: .requests))
    try write("response-\(name).payload", try envelope.encodedPayload())
}
let lockFrame = try RequestEnvelope(id: 3, request: .lock).encodedFrame()
try write("stream-two-frames", lockFrame + (try RequestEnvelope(id: 4, request: .appsList).encodedFrame()))
try write("bad-magic", Data("GET / HTTP/1.1\r\n".utf8))
try write("bad-version", Data(Array("CFRP".utf8) + [0, 9, 0, 0, 0, 0]))
try write("oversized", Data(Array("CFRP".utf8) + [0, 1, 0xFF, 0xFF, 0xFF, 0xFF]))
try write("truncated", lockFrame.prefix(lockFrame.count - 1))
print("wrote \(2 * (requests.count + responses.count) + 5) seeds to \(folder.path)")
