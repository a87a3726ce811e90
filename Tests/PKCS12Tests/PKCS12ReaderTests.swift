import Foundation
import KeychainModel
import Testing

@testable import PKCS12

/// `PKCS12Reader` against the files `openssl pkcs12 -export` writes: OpenSSL 3's default (PBES2: PBKDF2-HMAC-SHA-256
/// and AES-256-CBC, HMAC-SHA-256 MAC), `-legacy` (RC2-40 certificates, 3DES key, SHA-1 MAC), 3DES throughout, no
/// encryption, 2-key 3DES with RC2-128, RC4, and AES-128 with a SHA-512 MAC; RSA and P-256 keys with a
/// 2-certificate chain.
@Suite(.timeLimit(.minutes(10))) struct PKCS12ReaderTests {
    static let cases: [(OpenSSLPKCS12Files.KeyKind, String)] = OpenSSLPKCS12Files.KeyKind.allCases.flatMap { kind in
        OpenSSLPKCS12Files.forms.keys.sorted().map { (kind, $0) }
    }

    private func read(_ bytes: Data, _ passphrase: String = OpenSSLPKCS12Files.passphrase) throws(PKCS12Error) -> PKCS12Contents {
        try PKCS12Reader.read(bytes, passphrase: PKCS12Passphrase(passphrase))
    }

    private func pkcs8(_ key: PKCS12PrivateKey) -> Data { key.pkcs8.withUnsafeBytes { Data($0) } }

    @Test(arguments: cases)
    func readsWhatOpenSSLWrites(kind: OpenSSLPKCS12Files.KeyKind, form: String) throws {
        let made = try OpenSSLPKCS12Files.of(kind)
        let contents = try read(try made.file(form))
        #expect(contents.certificates.map(\.der) == [made.leafDER, made.caDER])
        #expect(contents.privateKeys.count == 1)
        let key = try #require(contents.privateKeys.first)
        #expect(pkcs8(key) == made.keyPKCS8)
        #expect(key.type == (kind == .rsa ? .rsa : .ellipticCurve))
        // openssl names the key and the leaf, and gives both the leaf's SHA-1 as local key ID.
        #expect(key.attributes.friendlyName == OpenSSLPKCS12Files.friendlyName)
        #expect(contents.certificates[0].attributes.friendlyName == OpenSSLPKCS12Files.friendlyName)
        #expect(key.attributes.localKeyID != nil)
        #expect(key.attributes.localKeyID == contents.certificates[0].attributes.localKeyID)
        #expect(contents.certificates[1].attributes == PKCS12BagAttributes(friendlyName: nil, localKeyID: nil))
    }

    @Test(arguments: ["default", "legacy", "tripleDES"])
    func wrongPassphraseIsAMACMismatch(form: String) throws {
        let file = try OpenSSLPKCS12Files.of(.rsa).file(form)
        for passphrase in ["wrong", "", "pässwörd ✓ 2"] {
            #expect(code { _ = try read(file, passphrase) } == .macMismatch)
        }
    }

    @Test func emptyPassphraseReadsAFileWrittenWithIt() throws {
        let made = try OpenSSLPKCS12Files.of(.p256)
        let contents = try read(made.emptyPassphraseFile, "")
        #expect(contents.certificates.map(\.der) == [made.leafDER, made.caDER])
        #expect(code { _ = try read(made.emptyPassphraseFile, "x") } == .macMismatch)
    }

    @Test(arguments: ["default", "legacy"])
    func changedBytesAreAMACMismatch(form: String) throws {
        let file = try OpenSSLPKCS12Files.of(.p256).file(form)
        // A byte of the contents (well inside the AuthenticatedSafe), then a byte of the MAC value itself (just
        // before the MacData's salt and iteration count).
        for offset in [file.count / 2, file.count - 15] {
            var changed = file
            changed[offset] ^= 0x01
            #expect(code { _ = try read(changed) } == .macMismatch, "offset \(offset)")
        }
    }

    @Test func garbageAndTruncatedFilesAreMalformed() throws {
        let file = try OpenSSLPKCS12Files.of(.rsa).file("default")
        #expect(code { _ = try read(Data()) } == .malformed)
        #expect(code { _ = try read(Data("not a PKCS#12 file".utf8)) } == .malformed)
        #expect(code { _ = try read(Data(repeating: 0x30, count: 64)) } == .malformed)
        for length in [1, 2, 4, 20, file.count / 2, file.count - 1] {
            #expect(code { _ = try read(file.prefix(length)) } == .malformed, "\(length) bytes")
        }
        #expect(code { _ = try read(file + [0]) } == .malformed)
    }

    @Test func iterationCountsAboveTheLimitAreRefused() {
        let password = KDFPassword.absent
        #expect(
            code {
                _ = try PKCS12KeyDerivation.derive(
                    .mac, password: password, salt: [1, 2, 3], iterations: PKCS12Limits.maximumIterations + 1, count: 20, digest: .sha1,
                    budget: PKCS12WorkBudget())
            } == .malformed)
        #expect(
            code {
                _ = try PKCS12KeyDerivation.derive(.mac, password: password, salt: [1], iterations: 0, count: 20, digest: .sha1, budget: PKCS12WorkBudget())
            } == .malformed)
    }

    /// A file is read only while its derivations together fit its budget: the MAC's, the contents' and the shrouded
    /// key's, each paid before it runs. One iteration-block less than a file needs refuses it as malformed.
    @Test(arguments: ["default", "legacy", "tripleDES"])
    func aFileWhoseDerivationsTogetherPassTheWorkBudgetIsRefused(form: String) throws {
        let file = [UInt8](try OpenSSLPKCS12Files.of(.p256).file(form))
        let passphrase = PKCS12Passphrase(OpenSSLPKCS12Files.passphrase)
        let measuring = PKCS12WorkBudget(total: PKCS12Limits.maximumTotalWork)
        _ = try PKCS12Reader.read(file, passphrase: passphrase, budget: measuring)
        let needed = PKCS12Limits.maximumTotalWork - measuring.remaining
        // openssl's 2,048 iterations for the MAC, the certificates' encryption and the key's, at least.
        #expect(needed >= 3 * 2_048)
        #expect(needed < PKCS12Limits.maximumTotalWork / 100)

        let exact = try PKCS12Reader.read(file, passphrase: passphrase, budget: PKCS12WorkBudget(total: needed))
        #expect(exact.privateKeys.count == 1)
        #expect(code { _ = try PKCS12Reader.read(file, passphrase: passphrase, budget: PKCS12WorkBudget(total: needed - 1)) } == .malformed)
        #expect(code { _ = try PKCS12Reader.read(file, passphrase: passphrase, budget: PKCS12WorkBudget(total: 2_048)) } == .malformed)
    }

    @Test func theWorkBudgetChargesIterationsTimesBlocksAndTakesNothingWhenItRefuses() throws {
        let budget = PKCS12WorkBudget(total: 10_000)
        try budget.spend(iterations: 2_000, outputBytes: 24, digestSize: 20)  // 3DES key from SHA-1: two blocks
        #expect(budget.remaining == 6_000)
        #expect(throws: PKCS12Error.self) { try budget.spend(iterations: 7_000, outputBytes: 32, digestSize: 32) }
        #expect(budget.remaining == 6_000)
        #expect(throws: PKCS12Error.self) { try budget.spend(iterations: Int.max, outputBytes: 64, digestSize: 20) }
        try budget.spend(iterations: 6_000, outputBytes: 8, digestSize: 20)
        #expect(budget.remaining == 0)
    }

    /// RFC 7292 appendix B's KDF against a value computed independently (Python's hashlib, following the RFC):
    /// SHA-1, ID 1, password "smeg" as a BMPString, salt 0A58CF64530D823F, 1 iteration, 24 bytes.
    @Test func keyDerivationMatchesAnIndependentComputation() throws {
        let passphrase = PKCS12Passphrase("smeg")
        let password = try #require(passphrase.bmpString())
        let key = try PKCS12KeyDerivation.derive(
            .key, password: .bmp(password), salt: [0x0A, 0x58, 0xCF, 0x64, 0x53, 0x0D, 0x82, 0x3F], iterations: 1, count: 24, digest: .sha1,
            budget: PKCS12WorkBudget())
        let hex = key.withUnsafeBytes { $0.map { String(format: "%02X", $0) }.joined() }
        #expect(hex == "8AAAE6297B6CB04642AB5B077851284EB7128F1A2A7FBCA3")
    }

    /// The code of the error `body` throws, nil when it throws none (or not a ``PKCS12Error``).
    private func code(_ body: () throws -> Void) -> PKCS12Error.Code? {
        do {
            try body()
            return nil
        } catch {
            return (error as? PKCS12Error)?.code
        }
    }
}
